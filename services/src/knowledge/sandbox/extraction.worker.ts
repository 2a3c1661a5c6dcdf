import { parentPort } from 'node:worker_threads';
import { readFileHere } from '../ingest/read-file.js';
import type { WorkerReply, WorkerJob } from './extraction-protocol.js';

/**
 * A thread of the extraction sandbox: reads one file at a time (extract → chunk → encode) and answers
 * with the result, moving its buffers rather than copying them. Its heap is capped by the pool; if a
 * file exhausts it, or its time runs out, the pool terminates this thread and starts another.
 */
const port = parentPort;
if (!port) throw new Error('extraction.worker runs inside a worker thread');

port.on('message', async (job: WorkerJob) => {
  let reply: WorkerReply;
  try {
    reply = { type: 'result', id: job.id, result: await readFileHere(job) };
  } catch (error) {
    reply = {
      type: 'crashed',
      id: job.id,
      message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    };
  }
  const transfer =
    reply.type === 'result' && 'read' in reply.result
      ? [reply.result.read.text.buffer as ArrayBuffer, reply.result.read.chunks.buffer as ArrayBuffer]
      : [];
  port.postMessage(reply, transfer);
});

port.postMessage({ type: 'ready' } satisfies WorkerReply);
