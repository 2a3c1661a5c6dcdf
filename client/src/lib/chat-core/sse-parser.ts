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
  /** The previous chunk ended in CR: an LF starting the next one belongs to that line end. */
  let pendingCr = false;
  let event = '';
  let data: string[] = [];
  let lastId = '';

  function line(text: string, out: SseEvent[]) {
    if (text === '') {
      if (data.length > 0) out.push({ event: event || 'message', data: data.join('\n'), id: lastId });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) lastId = value;
    // `retry` and unknown fields: nothing this client uses.
  }

  return {
    push(chunk: string): SseEvent[] {
      const out: SseEvent[] = [];
      let text = chunk;
      if (pendingCr && text.startsWith('\n')) text = text.slice(1);
      pendingCr = false;
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        line(buffer.slice(start, i), out);
        if (c === '\r') {
          if (i + 1 === buffer.length) pendingCr = true;
          else if (buffer[i + 1] === '\n') i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
      return out;
    },
  };
}
