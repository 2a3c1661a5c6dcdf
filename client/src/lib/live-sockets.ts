/** What the registry needs of a socket: the browser's WebSocket has it. */
interface ClosableSocket {
  close(code?: number, reason?: string): void;
}

/** The close code the server ends a signed-out session's sockets with (services/src/identity/live-sockets.ts). */
export const SIGNED_OUT_CLOSE_CODE = 4401;

const open = new Set<ClosableSocket>();

/**
 * The live sockets this tab opened with the owner's token (crawl progress, GraphQL subscriptions), so
 * that signing out closes them at once — before the server's own close arrives, and whatever page is
 * shown. Each socket is tracked while open; `closeAll` ends them all with the signed-out code, which
 * tells their owners not to reconnect.
 */
export const liveSockets = {
  /** Follows a socket; returns the function that stops following it (call it when it closes). */
  track(socket: ClosableSocket): () => void {
    open.add(socket);
    return () => void open.delete(socket);
  },
  closeAll() {
    const sockets = [...open];
    open.clear();
    for (const socket of sockets) socket.close(SIGNED_OUT_CLOSE_CODE, 'Signed out');
  },
  get size() {
    return open.size;
  },
};
