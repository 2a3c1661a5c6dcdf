import type { ReactNode } from 'react';

/**
 * How a chat message is shown, owner chat and visitor chat alike (issue 22 items 5, 6, 7): without the
 * redirect command, with its sources named as a person knows them, and with each line in its own
 * direction. Plain functions and one component on APIs Preact provides too (the visitor bundle).
 */

/** A redirect command anywhere (complete, or still arriving at the end of a streamed text). */
const COMMAND = /\[REDIRECT:[^\]\n]*\]?/g;
/** The start of a command cut by the stream ("[RED…" on the last line): hidden until it is whole. */
const COMMAND_PREFIX = /(?:^|\n)[ \t]*\[(?:R(?:E(?:D(?:I(?:R(?:E(?:C(?:T:?)?)?)?)?)?)?)?)?$/;

/**
 * The text a person reads: redirect commands are for the renderer (the Visit Link button), so one left in
 * the text — a streamed answer before it completes, a command the model put mid-line — is taken out.
 */
export function visibleText(text: string): string {
  if (!text.includes('[')) return text;
  return text
    .replace(COMMAND, '')
    .replace(COMMAND_PREFIX, '')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd();
}

/** A crawled page's stored name: the site's host, the path as a slug, a hash (`shop.example-products-bike-c3f920c5.html`). */
const generatedName = (filename: string, host: string) =>
  filename
    .toLowerCase()
    .replace(/^www\./, '')
    .startsWith(host.toLowerCase().replace(/^www\./, '')) && /-[0-9a-f]{6,}\.[a-z0-9]+$/i.test(filename);

/** An address as people read it: host and path, decoded (Hebrew slugs too), without the scheme, "www." or a last slash. */
export function readableAddress(url: string): string {
  try {
    const parsed = new URL(url);
    let path = parsed.pathname;
    try {
      path = decodeURIComponent(path);
    } catch {
      // A malformed escape: the path as it came.
    }
    return `${parsed.hostname.replace(/^www\./, '')}${path === '/' ? '' : path.replace(/\/$/, '')}`;
  } catch {
    return url;
  }
}

/**
 * The name a source is shown by: the page's title when the server knows it, a file's own name, or — for
 * a crawled page, whose stored name is internal — its address as people read it. Never an internal id.
 */
export function sourceLabel(source: { filename: string; sourceUrl: string | null; title?: string | null }): string {
  if (source.title?.trim()) return source.title.trim();
  if (!source.sourceUrl) return source.filename;
  let host = '';
  try {
    host = new URL(source.sourceUrl).hostname;
  } catch {
    return source.filename;
  }
  return !source.filename || generatedName(source.filename, host) ? readableAddress(source.sourceUrl) : source.filename;
}

/**
 * A message's lines, each isolated in its own direction (`dir="auto"`): in a Hebrew answer an English
 * line keeps its period on the right, and the other way round; a blank line stays a gap.
 */
export function BidiLines({
  text,
  renderLine = (line) => line,
}: {
  text: string;
  renderLine?: (line: string) => ReactNode;
}) {
  return (
    <>
      {text.split('\n').map((line, i) =>
        line.trim() ? (
          <div key={i} className="bidi-line" dir="auto">
            {renderLine(line)}
          </div>
        ) : (
          // Blocks need no stylesheet (the visitor pages load inside customers' sites); a <br> gives the gap its line.
          <div key={i} className="bidi-line bidi-gap" aria-hidden="true">
            <br />
          </div>
        ),
      )}
    </>
  );
}
