import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long after its run's deadline a grant still opens the stream: a client that connects late still reads the end. */
export const GRANT_GRACE_MS = 60_000;

/** What a valid grant says about the run it opens. */
export interface GrantedRun {
  threadId: string;
  runId: string;
  deadlineAt: Date;
}

/**
 * A run's stream grant: issued with the run to the owner who asked for it, it lets the run's SSE stream be
 * opened without the session and the thread being read again (two of a chat turn's statements, and the
 * fold of the whole conversation). It is an HMAC of the thread, the run and the run's deadline under a key
 * derived from the auth secret, which every API process shares, so any replica honours it and nothing
 * is remembered. It opens nothing else, and nothing after the run's deadline plus a short grace: the
 * stream only ever says the answer to the question its holder just asked. A sign-out therefore leaves a
 * run asked for just before it readable until that run's deadline (45 s by default), not longer.
 */
export function createRunGrants(deps: { secret: Uint8Array; clock: () => Date }) {
  const key = createHmac('sha256', deps.secret).update('kesher run stream grants v1').digest();
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  const payloadOf = (run: GrantedRun) => `${run.threadId}\n${run.runId}\n${run.deadlineAt.getTime()}`;
  return {
    issue(run: GrantedRun): string {
      return `${run.deadlineAt.getTime().toString(36)}.${sign(payloadOf(run))}`;
    },
    /** The run the grant opens, when it is this thread's and this run's, genuine and not past its time; otherwise undefined. */
    verify(grant: string, threadId: string, runId: string): GrantedRun | undefined {
      const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(grant);
      if (!match) return undefined;
      const deadline = parseInt(match[1]!, 36);
      if (!Number.isSafeInteger(deadline)) return undefined;
      const run = { threadId, runId, deadlineAt: new Date(deadline) };
      const expected = Buffer.from(sign(payloadOf(run)));
      const given = Buffer.from(match[2]!);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      if (deps.clock().getTime() > deadline + GRANT_GRACE_MS) return undefined;
      return run;
    },
  };
}

export type RunGrants = ReturnType<typeof createRunGrants>;
