import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exited, freePort, waitUntil } from '@kesher/services/testing/processes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haproxyConfig, startHaproxy } from './haproxy.js';
import { createLbClient } from './lb-client.js';

const installed = (() => {
  try {
    execFileSync('haproxy', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** A stand-in replica: answers the health route and every other path with its name. */
async function replica(name: string) {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ replica: name, forwardedFor: request.headers['x-forwarded-for'] ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/**
 * The scale test's balancer, as generated: round-robin per request with no stickiness, each answer naming
 * its replica, the client's own address forwarded, and a replica that died taken out without a failed request.
 */
describe.skipIf(!installed)(
  `the scale test's HAProxy configuration${installed ? '' : ' (not run: haproxy is not installed; bash ops/scale/ensure-lb.sh)'}`,
  () => {
    let dir: string;
    let haproxy: ChildProcess & { output: () => string };
    let first: Awaited<ReturnType<typeof replica>>;
    let second: Awaited<ReturnType<typeof replica>>;
    let base: string;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kesher-haproxy-'));
      [first, second] = await Promise.all([replica('one'), replica('two')]);
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      haproxy = startHaproxy(
        dir,
        haproxyConfig([
          {
            name: 'kesher',
            port,
            backends: [
              { name: 'api1', port: first.port },
              { name: 'api2', port: second.port },
            ],
          },
        ]),
      );
      const client = createLbClient(base);
      await waitUntil(async () => (await client.call('/api/v1/health').catch(() => undefined))?.status === 200, {
        timeoutMs: 15_000,
        what: `haproxy to answer\n${haproxy.output()}`,
      });
    });
    afterAll(async () => {
      haproxy?.kill('SIGTERM');
      if (haproxy) await exited(haproxy);
      await Promise.all([first, second].map((r) => r && new Promise((resolve) => r.server.close(resolve))));
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('spreads consecutive requests over both replicas and says which one answered', async () => {
      const client = createLbClient(base);
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await client.call('/api/v1/anything', { from: '127.0.0.9' }));
      // Alternating (where it starts depends on the requests before): no two in a row on one replica.
      const replicas = answers.map((a) => a.replica);
      expect(replicas.every((r, i) => i === 0 || r !== replicas[i - 1])).toBe(true);
      expect(new Set(replicas)).toEqual(new Set(['api1', 'api2']));
      expect(answers.map((a) => a.json<{ replica: string }>().replica)).toEqual(
        replicas.map((r) => (r === 'api1' ? 'one' : 'two')),
      );
      // The caller's own loopback address, as the APIs' TRUST_PROXY then believes it.
      expect(answers[0]!.json<{ forwardedFor: string }>().forwardedFor).toBe('127.0.0.9');
    });

    it('sends every request to the replica still up once the other stopped listening', async () => {
      await new Promise<void>((resolve) => {
        first.server.closeAllConnections();
        first.server.close(() => resolve());
      });
      const client = createLbClient(base);
      const answers = [];
      for (let i = 0; i < 6; i++) answers.push(await client.call('/api/v1/anything'));
      expect(answers.map((a) => [a.status, a.json<{ replica: string }>().replica])).toEqual(
        Array.from({ length: 6 }, () => [200, 'two']),
      );
    });
  },
);
