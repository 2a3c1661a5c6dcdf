import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Backend {
  name: string;
  port: number;
}

/**
 * HAProxy's configuration for the API replicas. Round-robin per request, no stickiness (no cookie, no
 * `prefer-last-server`): two calls of one client may land on different replicas, as they would behind any
 * plain balancer. Each frontend is one view of the replicas (all of them, or one, for the 1-vs-2 figures).
 *
 * - The health check is the API's own `/api/v1/health`, every second, 3 s to answer (a loaded 2-core
 *   machine answers slowly); three failures take a replica out, two successes bring it back.
 * - A connection refused by a replica that died before the check noticed is retried on the other one
 *   (`retries` + `option redispatch`; only connection failures are retried, never a request a replica got).
 * - SSE: the answer stream is a long response; the API sends a heartbeat every 15 s, so `timeout server`
 *   (60 s) never cuts a live stream; `timeout tunnel` covers the crawler's WebSocket.
 * - `X-Forwarded-For` carries the client's address (`option forwardfor`); the APIs believe it from the
 *   balancer only (TRUST_PROXY=127.0.0.1), so per-address limits see the real client.
 * - `X-Kesher-Replica` on every answer names the replica that served it (the test's evidence of spread).
 */
export function haproxyConfig(frontends: { name: string; port: number; backends: Backend[] }[]): string {
  const lines = [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout tunnel 1h',
    '  timeout http-keep-alive 10s',
    '  option redispatch',
    '  retries 3',
  ];
  for (const frontend of frontends) {
    lines.push(
      `frontend ${frontend.name}`,
      `  bind 127.0.0.1:${frontend.port}`,
      '  option forwardfor',
      `  default_backend ${frontend.name}_apis`,
      `backend ${frontend.name}_apis`,
      '  balance roundrobin',
      '  option httpchk GET /api/v1/health',
      '  http-check expect status 200',
      '  timeout check 3s',
      '  default-server inter 1s fall 3 rise 2',
      '  http-response set-header X-Kesher-Replica %[srv_name]',
      ...frontend.backends.map((backend) => `  server ${backend.name} 127.0.0.1:${backend.port} check`),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the configuration into `dir`, checks it with `haproxy -c` and starts HAProxy in the foreground. */
export function startHaproxy(dir: string, config: string): ChildProcess & { output: () => string } {
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  execFileSync('haproxy', ['-c', '-q', '-f', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (chunk) => (text += chunk));
  child.stderr.on('data', (chunk) => (text += chunk));
  return Object.assign(child, { output: () => text });
}
