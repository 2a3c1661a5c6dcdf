// Waits until a Kafka broker answers an admin request (listing topics), which is when clients can use it.
// An open port alone is not enough: the broker listens before its metadata has caught up.
//
//   node wait-ready.mjs --brokers 127.0.0.1:9092 [--timeout 90] [--pid 1234]
//
// Exit codes: 0 ready, 1 not ready within the timeout, 2 the watched process (--pid) exited first.
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel } from 'kafkajs';

const { values } = parseArgs({
  options: {
    brokers: { type: 'string', default: '127.0.0.1:9092' },
    timeout: { type: 'string', default: '90' },
    pid: { type: 'string' },
  },
});

const kafka = new Kafka({
  clientId: 'kesher-wait-ready',
  brokers: values.brokers.split(','),
  logLevel: logLevel.NOTHING,
  // Fail each attempt fast; the loop below does the waiting.
  connectionTimeout: 1000,
  requestTimeout: 3000,
  retry: { retries: 0 },
});

async function answers() {
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.listTopics();
    return true;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

const deadline = Date.now() + Number(values.timeout) * 1000;
const pid = values.pid ? Number(values.pid) : undefined;
for (;;) {
  if (await answers()) process.exit(0);
  if (pid !== undefined && !processAlive(pid)) process.exit(2);
  if (Date.now() >= deadline) process.exit(1);
  await sleep(500);
}
