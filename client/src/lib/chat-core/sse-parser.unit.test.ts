import { describe, expect, it } from 'vitest';
import { createSseParser, type SseEvent } from './sse-parser';

const parseAll = (...chunks: string[]) => {
  const parser = createSseParser();
  return chunks.flatMap((chunk) => parser.push(chunk));
};
const ev = (event: string, data: string, id = ''): SseEvent => ({ event, data, id });

describe('the SSE parser', () => {
  it('reads LF-framed events with their id, name and data', () => {
    expect(parseAll('id: 1\nevent: delta\ndata: {"text":"a"}\n\nevent: completed\ndata: {}\n\n')).toEqual([
      ev('delta', '{"text":"a"}', '1'),
      ev('completed', '{}', '1'),
    ]);
  });

  it('reads CRLF-framed and CR-framed events the same way', () => {
    expect(parseAll('id: 2\r\nevent: delta\r\ndata: x\r\n\r\n')).toEqual([ev('delta', 'x', '2')]);
    expect(parseAll('event: delta\rdata: y\r\r')).toEqual([ev('delta', 'y')]);
  });

  it('joins multi-line data with line feeds', () => {
    expect(parseAll('event: delta\ndata: first\ndata: second\r\ndata:\n\n')).toEqual([ev('delta', 'first\nsecond\n')]);
  });

  it('ignores comments and heartbeats, and blocks that carry no data', () => {
    expect(parseAll(': heartbeat\n\n:\n\nevent: delta\n: a comment inside\ndata: z\n\nevent: lonely\n\n')).toEqual([
      ev('delta', 'z'),
    ]);
  });

  it('keeps an event whose parts arrive in separate chunks, split anywhere', () => {
    const wire =
      'id: 7\r\nevent: delta\r\ndata: {"text":"שלום"}\r\n\r\n: heartbeat\r\n\r\nevent: completed\r\ndata: {"run_id":"run_1"}\r\n\r\n';
    const whole = parseAll(wire);
    expect(whole).toEqual([ev('delta', '{"text":"שלום"}', '7'), ev('completed', '{"run_id":"run_1"}', '7')]);
    // Every split point, including between the CR and the LF of a line end.
    for (let cut = 1; cut < wire.length; cut++) expect(parseAll(wire.slice(0, cut), wire.slice(cut))).toEqual(whole);
    // One character at a time.
    expect(parseAll(...wire.split(''))).toEqual(whole);
  });

  it('takes the space after the colon off once, and a field without a colon as empty', () => {
    expect(parseAll('data:  two spaces\n\ndata\n\n')).toEqual([ev('message', ' two spaces'), ev('message', '')]);
  });

  it('does not dispatch an event whose blank line has not arrived yet', () => {
    const parser = createSseParser();
    expect(parser.push('event: delta\ndata: a\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([ev('delta', 'a')]);
  });
});
