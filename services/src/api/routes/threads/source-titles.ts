import type { MessageDto } from '@kesher/contracts';
import type { Sql } from '../../../platform/sql/sql.port.js';

/**
 * Names an answer's sources as people know them (issue 22 item 6): a crawled page's knowledge file is
 * stored under an internal name (`shop.example-products-city-bike-c3f920c5.html`), so its page title —
 * kept by the crawler's read model beside the file it made — goes along as `title`. One query per list of
 * messages; the ids are the answer's own sources, so no other owner's page is ever looked up.
 */
export async function withSourceTitles<T extends Pick<MessageDto, 'sources'>>(
  readDb: Sql,
  messages: T[],
): Promise<T[]> {
  const fileIds = [...new Set(messages.flatMap((m) => m.sources.filter((s) => s.source_url).map((s) => s.file_id)))];
  if (fileIds.length === 0) return messages;
  let titles: Map<string, string>;
  try {
    const { rows } = await readDb.query<{ file_id: string; page_title: string }>(
      `SELECT DISTINCT ON (file_id) file_id, page_title FROM crawled_urls
       WHERE file_id = ANY($1::text[]) AND page_title IS NOT NULL AND btrim(page_title) <> ''
       ORDER BY file_id, committed_at DESC`,
      [fileIds],
    );
    titles = new Map(rows.map((row) => [row.file_id, row.page_title.trim()]));
  } catch {
    // A title is a nicety: without it the client names the page by its address.
    return messages;
  }
  if (titles.size === 0) return messages;
  return messages.map((m) => ({
    ...m,
    sources: m.sources.map((s) => (titles.has(s.file_id) ? { ...s, title: titles.get(s.file_id)! } : s)),
  }));
}

/** The same for one live answer's `completed` event (SSE), whose message carries the sources. */
export function titledEvents<E extends { event: string; data: unknown }>(
  readDb: Sql,
  produce: (signal: AbortSignal) => AsyncIterable<E>,
) {
  return async function* (signal: AbortSignal): AsyncIterable<E> {
    for await (const event of produce(signal)) {
      const data = event.data as { message?: MessageDto | null } | null;
      if (event.event === 'completed' && data?.message) {
        const [message] = await withSourceTitles(readDb, [data.message]);
        yield { ...event, data: { ...data, message } };
      } else yield event;
    }
  };
}
