import { type CrawlProgressMessage, CrawlProgressMessageSchema } from '@kesher/contracts';
import { useEffect, useState } from 'react';
import { api, API_BASE } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { liveSockets, SIGNED_OUT_CLOSE_CODE } from '@/lib/live-sockets';
import { tokenStorage } from '@/lib/token-storage';

export type Connection = 'connecting' | 'connected' | 'disconnected';
/** i18n keys of the spec's §8 progress errors. */
export type ProgressProblem = 'connectionError' | 'connectFailed' | null;

/** The address of a crawl's progress socket; a browser cannot set headers on a WebSocket, so the token rides in the query. */
export function progressSocketUrl(
  crawlId: string,
  location: Pick<Location, 'protocol' | 'host'> = window.location,
): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const token = tokenStorage.get();
  return `${scheme}://${location.host}${API_BASE}/ws/crawl-progress/${encodeURIComponent(crawlId)}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

const RETRY_MS = 3000;

const isFinal = (message: CrawlProgressMessage) =>
  message.status === 'completed' || message.status === 'error' || message.type === 'error';

/** GET /web-crawler/crawls/{id}: the crawl's progress asked once (the socket's message); 404 when it is not the owner's. */
export const getCrawlProgress = (crawlId: string) =>
  api.get(`/web-crawler/crawls/${encodeURIComponent(crawlId)}`, CrawlProgressMessageSchema);

/**
 * Live progress of one crawl over `/api/v1/ws/crawl-progress/{crawlId}`. The server sends the state on
 * every change and closes after the completed/error message; a socket that drops before that is opened
 * again (the server answers the current state at once, so nothing is missed).
 */
export function useCrawlProgress(crawlId: string | null) {
  const [progress, setProgress] = useState<CrawlProgressMessage | null>(null);
  const [connection, setConnection] = useState<Connection>('connecting');
  const [problem, setProblem] = useState<ProgressProblem>(null);
  /** The server knows no such crawl of this owner (404): there is nothing to follow. */
  const [gone, setGone] = useState(false);

  useEffect(() => {
    if (!crawlId) return;
    let socket: WebSocket | null = null;
    let finished = false;
    let stopped = false;
    let opened = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let untrack = () => {};
    setProgress(null);
    setProblem(null);
    setGone(false);

    const connect = () => {
      setConnection('connecting');
      try {
        socket = new WebSocket(progressSocketUrl(crawlId));
      } catch {
        setConnection('disconnected');
        setProblem('connectFailed');
        return;
      }
      // Signing out closes it (lib/live-sockets.ts).
      untrack = liveSockets.track(socket);
      socket.onopen = () => {
        opened = true;
        setConnection('connected');
        setProblem(null);
      };
      socket.onmessage = (event) => {
        let data: unknown;
        try {
          data = JSON.parse(String(event.data));
        } catch {
          return;
        }
        const parsed = CrawlProgressMessageSchema.safeParse(data);
        if (!parsed.success) return;
        setProgress(parsed.data);
        if (isFinal(parsed.data)) finished = true;
      };
      socket.onerror = () => setProblem(opened ? 'connectionError' : 'connectFailed');
      socket.onclose = (event?: { code?: number }) => {
        untrack();
        setConnection('disconnected');
        // Signed out (here or by the server): nothing to reconnect with.
        if (event?.code === SIGNED_OUT_CLOSE_CODE || !tokenStorage.get()) stopped = true;
        if (finished || stopped) return;
        setProblem((current) => current ?? 'connectionError');
        if (opened) {
          retry = setTimeout(connect, RETRY_MS);
          return;
        }
        // Refused before it opened: a crawl id left from another session (another owner's, or gone) is
        // refused every time. Ask once over HTTP: a 404 means there is nothing to follow (the panel lets
        // it go instead of "Crawling… 0%" for ever); an ended crawl shows its end; else try again.
        void getCrawlProgress(crawlId).then(
          (message) => {
            if (stopped) return;
            setProgress(message);
            if (isFinal(message)) {
              finished = true;
              setProblem(null);
            } else retry = setTimeout(connect, RETRY_MS);
          },
          (error: unknown) => {
            if (stopped) return;
            if (error instanceof ApiError && error.status === 404) {
              stopped = true;
              setGone(true);
            } else retry = setTimeout(connect, RETRY_MS);
          },
        );
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      untrack();
      socket?.close();
    };
  }, [crawlId]);

  return { progress, connection, problem, gone };
}
