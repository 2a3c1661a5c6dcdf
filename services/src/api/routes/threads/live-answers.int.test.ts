import type { MessageDto } from '@kesher/contracts';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerProvider } from '../../../chat/answer-provider.port.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { kafkaAvailability } from '../../../testing/kafka.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

/**
 * A provider that says its first words, then waits until the test lets it finish: the test can only see
 * those words before the end if they were really streamed while the answer was being produced.
 */
function heldProvider() {
  let release!: () => void;
  let released = new Promise<void>((resolve) => (release = resolve));
  const provider: AnswerProvider = {
    name: 'held',
    async *answer() {
      yield { kind: 'text', text: 'The bakery opens ' };
      yield { kind: 'text', text: 'at 7:00, ' };
      await released;
      yield { kind: 'text', text: 'Sunday to Thursday.' };
    },
  };
  return {
    provider,
    release: () => release(),
    reset: () => {
      released = new Promise<void>((resolve) => (release = resolve));
    },
  };
}

interface SseEvent {
  event: string;
  id?: string;
  data: { text?: string; message?: MessageDto | null };
}

/** Reads an SSE response as it arrives; `onEvent` sees each event the moment its block is complete. */
async function readSse(response: Response, onEvent: (event: SseEvent) => void) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(
        block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      onEvent({ event: fields.event!, id: fields.id, data: JSON.parse(fields.data ?? '{}') });
    }
  }
}

function liveAnswerTests(
  label: string,
  options: { topology: 'one-process' | 'split'; bus: 'in-process' | 'kafka' },
  available: { available: boolean; reason?: string },
) {
  describe.skipIf(!available.available)(
    `live answers (${label})${available.available ? '' : ` (not run: ${available.reason})`}`,
    () => {
      let h: ApiHarness;
      let base: string;
      const held = heldProvider();
      beforeAll(async () => {
        // A short deadline: if the first words never arrive live, the run ends (expired) and the test fails fast.
        // In one process the read models batch for a long moment here: the stream must end from the worker's
        // outcome, and the messages read right after must still show the answer (that read hurries them).
        const batching: Record<string, string> =
          options.topology === 'one-process' ? { PROJECTOR_BATCH_DELAY_MS: '3000' } : {};
        h = await createApiHarness({
          ...options,
          // Answers while the projector lags are the point: no waiting for it here.
          settleReads: false,
          answerProvider: held.provider,
          env: { RUN_DEADLINE_SECONDS: '10', ...batching },
        });
        await h.app.listen({ port: 0, host: '127.0.0.1' });
        base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}/api/v1`;
      });
      afterAll(async () => h?.close());

      it('streams the first words while the answer is still being produced, then completes with the stored message', async () => {
        held.reset();
        const owner = await h.owner();
        const auth = { authorization: owner.authorization, 'content-type': 'application/json' };
        const call = async (path: string, body?: unknown) => {
          const response = await fetch(`${base}${path}`, {
            method: body ? 'POST' : 'GET',
            headers: auth,
            body: body ? JSON.stringify(body) : undefined,
          });
          expect(response.status, await response.clone().text()).toBeLessThan(300);
          return (await response.json()) as any;
        };
        const assistant = await call('/assistants/', {
          name: 'Bakery',
          description: 'The bakery',
          instructions: 'Answer briefly',
        });
        const { thread_id: threadId } = await call('/threads/', { assistant_id: assistant.assistant_id });
        await call(`/threads/${threadId}/messages`, { content: 'When do you open?' });
        const { run_id: runId } = await call(`/threads/${threadId}/runs`, {
          assistant_id: assistant.openai_assistant_id,
        });

        const events: SseEvent[] = [];
        const stream = await fetch(`${base}/threads/${threadId}/runs/${runId}/stream`, { headers: auth });
        expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
        let midway: MessageDto[] | undefined;
        await readSse(stream, (event) => {
          events.push(event);
          // The answer is held until the first words have reached this client, and the thread was read
          // meanwhile (which settles this client's own writes: only the worker's answer is left to show).
          if (event.event === 'delta' && !midway) {
            midway = [];
            void call(`/threads/${threadId}/messages`).then((list) => {
              midway = list.data;
              held.release();
            });
          }
        });
        expect(midway!.map((m) => m.role)).toEqual(['user']);

        const kinds = events.map((e) => e.event);
        expect(kinds.at(-1)).toBe('completed');
        expect(kinds.slice(0, -1).every((kind) => kind === 'delta')).toBe(true);
        expect(kinds.filter((kind) => kind === 'delta').length).toBeGreaterThan(0);
        const streamed = events
          .filter((e) => e.event === 'delta')
          .map((e) => e.data.text)
          .join('');
        const stored = events.at(-1)!.data.message!.content[0]!.text.value;
        expect(stored).toBe('The bakery opens at 7:00, Sunday to Thursday.');
        expect(streamed).toBe(stored);
        expect(events.filter((e) => e.event === 'delta').map((e) => Number(e.id))).toEqual(
          events.filter((e) => e.event === 'delta').map((_, i) => i + 1),
        );

        // The stream's last word (the worker's recorded outcome) is exactly what the thread shows when read right after.
        const listed = (await call(`/threads/${threadId}/messages`)).data as MessageDto[];
        expect(listed.at(-1)).toEqual(events.at(-1)!.data.message);

        // A client that reconnects with the last id it has gets only the rest, then the end.
        const resumed: SseEvent[] = [];
        await readSse(
          await fetch(`${base}/threads/${threadId}/runs/${runId}/stream`, {
            headers: { ...auth, 'last-event-id': '1' },
          }),
          (event) => resumed.push(event),
        );
        expect(resumed.map((e) => e.event).at(-1)).toBe('completed');
        expect(
          events.find((e) => e.id === '1')!.data.text +
            resumed
              .filter((e) => e.event === 'delta')
              .map((e) => e.data.text)
              .join(''),
        ).toBe(stored);
      });
    },
  );
}

liveAnswerTests('one process', { topology: 'one-process', bus: 'in-process' }, gate);
liveAnswerTests('API and workers apart, in-process bus', { topology: 'split', bus: 'in-process' }, gate);
liveAnswerTests(
  'API and workers apart, Kafka',
  { topology: 'split', bus: 'kafka' },
  gate.available ? await kafkaAvailability() : gate,
);
