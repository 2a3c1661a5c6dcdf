/**
 * The chat bench's "model" in a process of its own: the local OpenAI stand-in, answering its first token
 * after FIRST_TOKEN_DELAY_MS with the pieces given in STAND_IN_PIECES (JSON). Apart from the load
 * generator, its 200 ms are the model's own and are not stretched by the twenty conversations' clients
 * sharing its event loop. Prints its base URL (and a counter's, which answers how many requests it
 * served) as one JSON line.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startOpenAiStandIn } from '@kesher/services/testing/openai-stand-in';

const pieces = JSON.parse(process.env.STAND_IN_PIECES ?? '["Hello."]') as string[];
const standIn = await startOpenAiStandIn({
  firstTokenDelayMs: Number(process.env.FIRST_TOKEN_DELAY_MS ?? 200),
  fallback: { kind: 'stream', pieces, usage: { prompt_tokens: 900, completion_tokens: pieces.length } },
});
const counter = createServer((_request, response) => response.end(String(standIn.requests.length)));
await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
console.log(
  JSON.stringify({ baseURL: standIn.baseURL, counter: `http://127.0.0.1:${(counter.address() as AddressInfo).port}` }),
);
process.on('SIGTERM', () => process.exit(0));
