/** One dispatched server-sent event. */
export interface SseEvent {
  /** `message` when the block named none. */
  event: string;
  /** The `data:` lines joined with line feeds (the standard's rule for multi-line data). */
  data: string;
  /** The last event id seen so far in the stream (it carries over to later events, as in EventSource). */
  id: string;
}

/**
 * An incremental parser of the `text/event-stream` format as the HTML standard defines it: lines end in
 * CRLF, LF or CR (a CR at the end of one chunk whose LF arrives in the next is still one line end), a
 * blank line dispatches the event, `data:` lines accumulate, lines starting with `:` are comments (the
 * server's heartbeats) and are ignored, one space after the colon is dropped. Feed it the decoded text
 * as it arrives, in chunks split anywhere; it returns the events each chunk completed.
 */
export function createSseParser() {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id = '';
  /** The last chunk ended in CR: an LF opening this one is the rest of that line end, not a blank line. */
  let cr = false;
  return {
    push(chunk: string): SseEvent[] {
      const out: SseEvent[] = [];
      const text = cr && chunk[0] === '\n' ? chunk.slice(1) : chunk;
      cr = text.endsWith('\r');
      const lines = (buffer + text).split(/\r\n|\r|\n/);
      buffer = lines.pop()!;
      for (const line of lines) {
        if (line === '') {
          if (data.length) out.push({ event: event || 'message', data: data.join('\n'), id });
          event = '';
          data = [];
          continue;
        }
        const colon = line.indexOf(':');
        if (colon === 0) continue;
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(line[colon + 1] === ' ' ? colon + 2 : colon + 1);
        if (field === 'data') data.push(value);
        else if (field === 'event') event = value;
        else if (field === 'id' && !value.includes('\0')) id = value;
      }
      return out;
    },
  };
}
