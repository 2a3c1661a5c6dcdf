import { chatMessages } from '@kesher/contracts/rules/chat';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '@/lib/api-error';
import type { Translate } from '@/lib/texts';
import type { ChatAccess } from '@/lib/chat-core/chat-access';
import { listMessages, sendFeedback } from '@/lib/chat-core/chat-calls';
import { isThreadGoneOnSend, sendMessageAndRun } from '@/lib/chat-core/run-calls';
import type { ChatMessage } from '@/lib/chat-core/chat-messages';
import type { RunRef } from '@/lib/chat-core/follow-run';
import { checkInput, inputProblemText } from '@/lib/chat-core/input-rules';
import {
  isThreadGone,
  loadError,
  LOADING_RESET_MS,
  nextProgress,
  PROGRESS_TICK_MS,
  RUNNING_RESET_MS,
  sendError,
  threadStartError,
} from '../chat-rules';
import type { Rating } from '../feedback-memory';
import { followRun, type RunOutcome } from '../follow-run';

/** The assistant a chat talks to: its dashboard id and the external id its runs are started with. */
export interface ChatAssistant {
  id: number;
  name: string;
  description: string;
  /** `openai_assistant_id` (asst_…); null when unknown (a visitor who never opened the share link). */
  externalId: string | null;
}

/**
 * Who is chatting and how a conversation starts: the owner's bearer session, or a visitor's session
 * token (none until their first thread). Composed by the pages, so this screen knows neither router
 * nor storage.
 */
export interface ChatConnection {
  access: ChatAccess | null;
  startThread(): Promise<{ threadId: string; access: ChatAccess }>;
}

export interface ChatAlert {
  id: number;
  text: string;
  tone: 'error' | 'info';
  /** An input rule's text (word or token limit): it goes once a message has been sent. */
  aboutInput?: boolean;
}

const RUNNING_RESET = 'running-reset';
const ALERT_MS = 7000; // spec §9: error notifications stay 7 s
let nextTempId = 0;
let nextAlertId = 0;

const tempMessage = (text: string): ChatMessage => ({
  id: `temp-${++nextTempId}`,
  role: 'user',
  text,
  timestamp: Date.now(),
  runId: null,
  sources: [],
  hasRedirect: false,
  redirectUrl: null,
});

export const isTempMessage = (message: ChatMessage) => message.id.startsWith('temp-');

interface Options {
  assistant: ChatAssistant;
  threadId: string | undefined;
  connection: ChatConnection;
  onThreadChange: (threadId: string | undefined) => void;
  t: Translate;
}

/**
 * The chat's behaviour (spec §4 "Chat send"): the user message shows at once under a temporary id, is
 * posted together with its run in one call (a thread is created first when there is none), the run is
 * followed — over SSE, polling when the stream is unavailable — and on completion the conversation is reloaded.
 */
export function useChat({ assistant, threadId, connection, onThreadChange, t }: Options) {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [historyLoading, setHistoryLoading] = useState(false);
  const [sending, setSending] = useState(false);
  const [running, setRunning] = useState(false);
  const [streamText, setStreamText] = useState<string | null>(null);
  const [progress, setProgress] = useState(0);
  const [requiresAction, setRequiresAction] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [alerts, setAlerts] = useState<ChatAlert[]>([]);
  const [freshId, setFreshId] = useState<string | null>(null);
  const [draft, setDraft] = useState('');

  // Latest props, read by async work that outlives a render.
  const latest = useRef({ assistant, connection, onThreadChange, t });
  latest.current = { assistant, connection, onThreadChange, t };
  /** The conversation on screen (the URL's, or one this screen just created) and how to reach it. */
  const current = useRef<{ threadId: string | undefined; access: ChatAccess | null; initialized: boolean }>({
    threadId,
    access: null,
    initialized: false,
  });
  /** Bumped whenever the conversation changes: late answers for an older one are dropped. */
  const generation = useRef(0);
  const operation = useRef<AbortController | null>(null);
  const mounted = useRef(true);
  /** A posted message keeps the key of its temporary stand-in, so its row is updated, not replaced. */
  const keys = useRef(new Map<string, string>());

  const accessNow = () => current.current.access ?? latest.current.connection.access;
  const live = (gen: number) => mounted.current && generation.current === gen;

  const dismissAlert = useCallback((id: number) => setAlerts((list) => list.filter((a) => a.id !== id)), []);
  const showAlert = useCallback(
    (text: string, tone: ChatAlert['tone'] = 'error', aboutInput = false) => {
      const id = ++nextAlertId;
      setAlerts((list) => [...list, { id, text, tone, aboutInput }]);
      setTimeout(() => mounted.current && dismissAlert(id), ALERT_MS);
    },
    [dismissAlert],
  );

  /** Leaves whatever was on screen: the run being followed is dropped (it still finishes on the server). */
  const switchTo = (next: string | undefined) => {
    current.current.threadId = next;
    generation.current++;
    operation.current?.abort();
    operation.current = null;
    setMessages([]);
    setHistoryLoading(false);
    setSending(false);
    setRunning(false);
    setStreamText(null);
    setProgress(0);
    setRequiresAction(false);
    setFreshId(null);
    setNotice(null);
  };

  /** The thread cannot be read (404 THREAD_NOT_FOUND, 400 THREAD_INVALID): start fresh (§7). */
  const startFresh = () => {
    switchTo(undefined);
    setNotice(latest.current.t('threadGone'));
    latest.current.onThreadChange(undefined);
  };

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      operation.current?.abort();
    };
  }, []);

  // The conversation in the URL: load its history, unless it is the one this screen just created.
  useEffect(() => {
    if (current.current.initialized && current.current.threadId === threadId) return;
    current.current.initialized = true;
    switchTo(threadId);
    if (!threadId) return;
    const access = accessNow();
    if (!access) return startFresh();
    const gen = generation.current;
    setHistoryLoading(true);
    listMessages(access, threadId)
      .then(
        (list) => live(gen) && setMessages(list),
        (error: unknown) => {
          if (!live(gen)) return;
          if (isThreadGone(error)) startFresh();
          else if (error instanceof ApiError && error.detail === chatMessages.invalidShareLink)
            showAlert(latest.current.t('invalidShareLink'));
          else showAlert(loadError(error, latest.current.t));
        },
      )
      .finally(() => live(gen) && setHistoryLoading(false));
  }, [threadId]);

  async function follow(access: ChatAccess, thread: string, run: RunRef, op: AbortController, gen: number) {
    const { t } = latest.current;
    setRunning(true);
    setProgress(0);
    setRequiresAction(false);
    setStreamText(null);
    const ticker = setInterval(() => setProgress((p) => nextProgress(p)), PROGRESS_TICK_MS);
    const runningReset = setTimeout(() => op.abort(RUNNING_RESET), RUNNING_RESET_MS);
    let outcome: RunOutcome | null = null;
    try {
      outcome = await followRun(
        access,
        thread,
        run,
        {
          onDelta: (text) => live(gen) && setStreamText(text),
          onStatus: (run) => live(gen) && setRequiresAction(run.status === 'requires_action'),
        },
        op.signal,
      );
    } catch (error) {
      if (op.signal.reason === RUNNING_RESET) outcome = { kind: 'timeout' };
      else if (live(gen) && !op.signal.aborted) showAlert(sendError(error, t));
    } finally {
      clearInterval(ticker);
      clearTimeout(runningReset);
    }
    if (!live(gen)) return;
    if (outcome?.kind === 'completed') {
      setProgress(100);
      setRequiresAction(false);
      setNotice(t('responseReady'));
      let list: ChatMessage[] | null = null;
      try {
        list = await listMessages(access, thread);
      } catch {
        // The stored answer came with the stream's end; show it even if the reload failed.
      }
      if (!live(gen)) return;
      const settled = outcome;
      if (list) setMessages(list);
      else if (settled.message) setMessages((all) => [...all, settled.message!]);
      const arrived = settled.messageId ?? [...(list ?? [])].reverse().find((m) => m.role === 'assistant')?.id ?? null;
      setFreshId(arrived);
    } else if (outcome?.kind === 'failed') {
      showAlert(t('runFailed', { message: outcome.error || t('unknownError') }));
    } else if (outcome?.kind === 'expired' || outcome?.kind === 'timeout') {
      showAlert(t('timedOut'));
    }
    setStreamText(null);
    setRunning(false);
    if (operation.current === op) operation.current = null;
  }

  /** Sends the draft (Enter or the Send button). Invalid input alerts its problem instead (§5). */
  const send = async () => {
    const { t, assistant: target, connection: conn, onThreadChange: announce } = latest.current;
    const check = checkInput(draft);
    if (check.empty || sending || running) return;
    if (check.problem) {
      showAlert(inputProblemText(check, t)!, 'error', true);
      return;
    }
    // The message goes out with its run, so without the assistant's external id nothing can be sent: the draft stays.
    const externalId = target.externalId;
    if (!externalId) {
      showAlert(t('errors.noAssistant'));
      return;
    }
    // A valid message goes out: what was said about an earlier, too long one no longer applies.
    setAlerts((list) => (list.some((a) => a.aboutInput) ? list.filter((a) => !a.aboutInput) : list));
    const text = draft.trim();
    const op = new AbortController();
    operation.current = op;
    let gen = generation.current;
    const pending = tempMessage(text);
    const giveBack = () => {
      if (!live(gen)) return;
      setMessages((all) => all.filter((m) => m.id !== pending.id));
      setDraft((now) => (now === '' ? text : now));
    };
    setSending(true);
    setNotice(null);
    setFreshId(null);
    setDraft('');
    setMessages((all) => [...all, pending]);
    const loadingReset = setTimeout(() => mounted.current && setSending(false), LOADING_RESET_MS);
    try {
      let thread = current.current.threadId;
      let access = accessNow();
      if (!thread || !access) {
        try {
          const started = await conn.startThread();
          if (!live(gen)) return;
          thread = started.threadId;
          access = started.access;
          current.current.threadId = thread;
          current.current.access = access;
          announce(thread);
        } catch (error) {
          if (live(gen)) showAlert(threadStartError(error, t));
          giveBack();
          return;
        }
      }
      // One call posts the message and starts its run; a refusal stores neither, so it is a message not posted.
      let run: RunRef;
      try {
        const sent = await sendMessageAndRun(access, thread, externalId, text);
        if (!live(gen)) return;
        const posted = sent.posted;
        keys.current.set(posted.id, pending.id);
        setMessages((all) => all.map((m) => (m.id === pending.id ? { ...posted, text: posted.text || text } : m)));
        run = sent.run;
      } catch (error) {
        if (!live(gen)) return;
        if (isThreadGoneOnSend(error)) {
          startFresh();
          gen = generation.current;
        } else showAlert(sendError(error, t));
        giveBack();
        return;
      }
      clearTimeout(loadingReset);
      setSending(false);
      await follow(access, thread, run, op, gen);
    } finally {
      clearTimeout(loadingReset);
      if (live(gen)) setSending(false);
    }
  };

  /** New Chat (owner, §4): a new thread, and the address follows it. */
  const newChat = async () => {
    const { t, connection: conn, onThreadChange: announce } = latest.current;
    try {
      const started = await conn.startThread();
      if (!mounted.current) return;
      switchTo(started.threadId);
      current.current.access = started.access;
      announce(started.threadId);
    } catch (error) {
      if (mounted.current) showAlert(threadStartError(error, t));
    }
  };

  // Stable, so the memoized messages do not re-render while the answer streams in.
  const giveFeedback = useCallback(async (messageId: string, rating: Rating, comment: string | null) => {
    const access = current.current.access ?? latest.current.connection.access;
    const thread = current.current.threadId;
    if (!access || !thread) throw new ApiError('unexpected', null, latest.current.t('errors.sendFailed'));
    await sendFeedback(access, {
      assistantId: latest.current.assistant.id,
      threadId: thread,
      messageId,
      rating,
      comment,
    });
  }, []);

  const keyOf = useCallback((message: ChatMessage) => keys.current.get(message.id) ?? message.id, []);

  return {
    messages,
    keyOf,
    historyLoading,
    sending,
    running,
    busy: sending || running,
    streamText,
    progress,
    requiresAction,
    notice,
    alerts,
    freshId,
    draft,
    setDraft,
    send,
    newChat,
    giveFeedback,
    showAlert,
    dismissAlert,
  };
}
