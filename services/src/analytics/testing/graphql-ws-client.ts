import WebSocket from 'ws';

export interface WsMessage {
  type: string;
  id?: string;
  payload?: any;
}

/**
 * A graphql-transport-ws client over a real WebSocket, for tests and benchmarks: connection_init with the
 * bearer token, then one subscription. `next(match)` resolves with the next server message that matches
 * (or `{ type: 'closed' }` once the socket closed); `onMessage` sees each message as it arrives.
 */
export async function subscribeGraphql(
  url: string,
  authorization: string | null,
  query: string,
  onMessage?: (message: WsMessage) => void,
) {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  const received: WsMessage[] = [];
  const waiters: (() => void)[] = [];
  let closed: { code: number; reason: string } | undefined;
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw)) as WsMessage;
    onMessage?.(message);
    received.push(message);
    waiters.splice(0).forEach((wake) => wake());
  });
  socket.on('close', (code, reason) => {
    closed = { code, reason: String(reason) };
    waiters.splice(0).forEach((wake) => wake());
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let seen = 0;
  async function next(match: (message: WsMessage) => boolean): Promise<WsMessage> {
    for (;;) {
      while (seen < received.length) {
        const message = received[seen++]!;
        if (match(message)) return message;
      }
      if (closed) return { type: 'closed', payload: closed };
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  }
  socket.send(JSON.stringify({ type: 'connection_init', payload: authorization ? { authorization } : {} }));
  const ack = await next((m) => m.type === 'connection_ack' || m.type === 'connection_error' || m.type === 'error');
  if (ack.type === 'connection_ack') socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
  return { ack, next, close: () => socket.close() };
}
