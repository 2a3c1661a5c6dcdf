import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface TestServer {
  port: number;
  host: string;
  /** `http://host:port/path`, or with another host name (resolved by the test's own resolver). */
  url(path: string, hostname?: string): string;
  /** Paths requested so far, in order: proves a refused fetch never reached the server. */
  requests: string[];
  close(): Promise<void>;
}

/** A local HTTP server for outbound and crawler tests; it listens only on a loopback address. */
export async function startTestServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  host = '127.0.0.1',
): Promise<TestServer> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    handler(request, response);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    host,
    requests,
    url: (path, hostname = host) => `http://${hostname}:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
