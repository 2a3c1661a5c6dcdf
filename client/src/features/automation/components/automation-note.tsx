import '../locales';
import './automation-note.css';
import type { ConversationAutomationDto } from '@kesher/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { conversationAutomationQuery } from '../api/automation-history';

const percent = (score: number) => `${Math.round(score * 100)}%`;

/**
 * A fresh answer's run may reach the automation read model a moment after the answer itself: ask again
 * a few times (ms after the answer) until the run is recorded — most answers fire nothing, so not forever.
 */
export const FOLLOW_UP_MS = [0, 1500, 4000] as const;

export interface AutomationNoteProps {
  threadId: string;
  /** The run that wrote the answer. */
  runId: string;
  /** The answer has just arrived in this page (not read from history). */
  fresh: boolean;
}

const ranIn = (data: ConversationAutomationDto | undefined, runId: string) => ({
  firings: data?.firings.filter((f) => f.run_id === runId) ?? [],
  calls: data?.action_calls.filter((c) => c.run_id === runId) ?? [],
});

/**
 * Under one answer in the owner's chat: which workflow fired for it and why (the phrases that matched
 * and the score, the trigger condition, or still in force from an earlier message), with its
 * instructions as they stood then, and the actions that ran and how they went. Nothing when automation
 * did nothing for this answer (or its record cannot be read: the answer itself matters more).
 */
export default function AutomationNote({ threadId, runId, fresh }: AutomationNoteProps) {
  const { t } = useTranslation('automation');
  const query = useQuery(conversationAutomationQuery(threadId));
  const { firings, calls } = ranIn(query.data, runId);
  const recorded = useRef(false);
  recorded.current = firings.length > 0 || calls.length > 0;
  const { refetch } = query;

  useEffect(() => {
    if (!fresh) return;
    const timers = FOLLOW_UP_MS.map((ms) =>
      setTimeout(() => recorded.current || void refetch({ cancelRefetch: false }), ms),
    );
    return () => timers.forEach(clearTimeout);
  }, [fresh, runId, refetch]);

  if (!recorded.current) return null;
  const configured = (workflowId: string) => query.data?.configuration.workflows.find((w) => w.id === workflowId);
  const summary =
    firings.length > 0
      ? firings.map((f) => t('noteWorkflow', { title: f.title })).join(' · ')
      : t('noteActionsOnly', { count: calls.length });

  return (
    <details className="automation-note">
      <summary>
        {t('noteLabel')} — <span dir="auto">{summary}</span>
      </summary>
      <div className="automation-note-body">
        {firings.map((firing) => {
          const instructions = configured(firing.workflow_id)?.instructions;
          return (
            <div key={`${firing.workflow_id}-${firing.fired_at}`}>
              <p>
                <strong dir="auto">{firing.title}</strong>{' '}
                {firing.matched_on === 'continued'
                  ? t('noteContinued')
                  : t(firing.matched_on === 'trigger' ? 'noteFiredTrigger' : 'noteFiredPhrase', {
                      score: percent(firing.score),
                    })}
              </p>
              {firing.matched_phrases.length > 0 ? (
                <>
                  <p>{t('matchedPhrases')}:</p>
                  <ul className="automation-note-phrases">
                    {firing.matched_phrases.map((phrase) => (
                      <li key={phrase} dir="auto">
                        {phrase}
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
              {instructions ? (
                <p>
                  {t('noteInstructions')}:{' '}
                  <span className="automation-note-instructions" dir="auto">
                    {instructions}
                  </span>
                </p>
              ) : null}
            </div>
          );
        })}
        {calls.length > 0 ? (
          <div>
            <p>{t('noteActions')}:</p>
            <ul className="automation-note-actions">
              {calls.map((call) => (
                <li key={call.call_id}>
                  <span dir="auto">{call.title}</span>:{' '}
                  <span className={call.success ? 'automation-note-ok' : 'automation-note-failed'}>
                    {t(call.success ? 'noteActionOk' : 'noteActionFailed')}
                  </span>
                  {call.status_code === null ? null : (
                    <>
                      {' · '}
                      <span dir="ltr">HTTP {call.status_code}</span>
                    </>
                  )}
                  {' · '}
                  {t('noteMs', { ms: Math.round(call.duration_ms) })}
                  {call.error ? <span dir="auto"> — {call.error}</span> : null}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </details>
  );
}
