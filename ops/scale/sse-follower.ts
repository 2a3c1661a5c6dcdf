import { request as httpRequest } from 'node:http';

/** One event of a run's answer stream (docs/chat.md "Streaming"). */
export interface StreamEvent {
  event: string;
  id?: number;
  data: unknown;
}

/** One connection of a followed stream: who served it, what it answered, how it ended. */
export interface StreamConnection {
  replica: string | undefined;
  status: number;
  lastEventIdSent: number | undefined;
  events: number;
  ended: 'end-event' | 'closed' | 'error' | 'refused';
  detail?: string;
}

export interface FollowedStream {
  deltas: { id: number; text: string }[];
  /** The final event (`completed`, `failed`, `expired`), if one came. */
  end?: StreamEvent;
  connections: StreamConnection[];
  /** ms from the start of following to the first delta, and to the final event. */
  firstDeltaMs?: number;
  endMs?: number;
  /** Delta ids seen twice (a resume that repeated what was already shown). */
  repeatedIds: number[];
}

const END_EVENTS = new Set(['completed', 'failed', 'expired']);

/**
 * Follows a run's SSE stream as the chat's client does, through the balancer: when the connection drops
 * before a final event, it reconnects with `Last-Event-ID` (the last delta's id) and goes on, up to
 * `maxConnections` connections. `onEvent` sees every event with the replica serving it (the test kills
 * that replica from there).
 */
export async function followStream(
  base: string,
  path: string,
  options: {
    token?: string;
    /** The run's stream grant (the owner's run, as created): sent instead of the bearer token, as the owner's chat does. */
    grant?: string;
    from?: string;
    maxConnections?: number;
    startedAt?: number;
    onEvent?: (event: StreamEvent, replica: string | undefined) => void;
  } = {},
): Promise<FollowedStream> {
  const origin = new URL(base);
  const startedAt = options.startedAt ?? performance.now();
  const result: FollowedStream = { deltas: [], connections: [], repeatedIds: [] };
  const seen = new Set<number>();
  const maxConnections = options.maxConnections ?? 6;

  const connectOnce = (lastEventId: number | undefined) =>
    new Promise<StreamConnection>((resolve) => {
      const connection: StreamConnection = {
        replica: undefined,
        status: 0,
        lastEventIdSent: lastEventId,
        events: 0,
        ended: 'closed',
      };
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (options.grant) headers['x-run-grant'] = options.grant;
      else if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (lastEventId !== undefined) headers['last-event-id'] = String(lastEventId);
      const req = httpRequest(
        { host: origin.hostname, port: origin.port, path, headers, localAddress: options.from, agent: false },
        (res) => {
          connection.status = res.statusCode ?? 0;
          connection.replica = res.headers['x-kesher-replica'] as string | undefined;
          if (connection.status !== 200) {
            let body = '';
            res.on('data', (chunk) => (body += chunk));
            res.on('end', () => resolve({ ...connection, ended: 'refused', detail: body.slice(0, 300) }));
            res.on('error', () => resolve({ ...connection, ended: 'refused', detail: body.slice(0, 300) }));
            return;
          }
          res.setEncoding('utf8');
          let buffer = '';
          let finished = false;
          const finish = (ended: StreamConnection['ended'], detail?: string) => {
            if (finished) return;
            finished = true;
            resolve({ ...connection, ended, detail });
          };
          res.on('data', (chunk: string) => {
            buffer += chunk.replace(/\r\n?/g, '\n');
            for (let at = buffer.indexOf('\n\n'); at >= 0; at = buffer.indexOf('\n\n')) {
              const block = buffer.slice(0, at);
              buffer = buffer.slice(at + 2);
              const event = parseBlock(block);
              if (!event) continue;
              connection.events++;
              options.onEvent?.(event, connection.replica);
              if (event.event === 'delta' && event.id !== undefined) {
                if (seen.has(event.id)) result.repeatedIds.push(event.id);
                seen.add(event.id);
                result.deltas.push({ id: event.id, text: (event.data as { text: string }).text });
                result.firstDeltaMs ??= performance.now() - startedAt;
              } else if (END_EVENTS.has(event.event)) {
                result.end = event;
                result.endMs = performance.now() - startedAt;
                req.destroy();
                finish('end-event');
                return;
              }
            }
          });
          res.on('end', () => finish('closed'));
          res.on('error', (error) => finish('error', error.message));
          res.on('close', () => finish('closed'));
        },
      );
      req.on('error', (error) =>
        resolve({ ...connection, ended: connection.status ? 'error' : 'refused', detail: error.message }),
      );
      req.end();
    });

  while (!result.end && result.connections.length < maxConnections) {
    const lastId = result.deltas.at(-1)?.id;
    const connection = await connectOnce(lastId);
    result.connections.push(connection);
    // A refused reconnect (the balancer had no replica up for a moment) is tried again after a short pause.
    if (!result.end && connection.ended === 'refused') await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return result;
}

function parseBlock(block: string): StreamEvent | undefined {
  let event = 'message';
  let id: number | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || line === '') continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'id') id = Number(value);
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return undefined;
  return { event, id, data: JSON.parse(data.join('\n')) };
}
