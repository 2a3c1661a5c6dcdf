import { createHash } from 'node:crypto';

const hex = (text: string, length: number) => createHash('sha256').update(text).digest('hex').slice(0, length);

/** A crawled page of an assistant (its Crawler Settings record): the same address keeps the same id across crawls. */
export const crawledPageId = (assistantId: string, key: string) => `url_${hex(`${assistantId}\n${key}`, 24)}`;

/**
 * The knowledge file a crawl makes of a page. Derived from the crawl and the page, so that a commit run
 * again after a crash (or sent twice) names the same file and records nothing new.
 */
export const crawlFileId = (crawlId: string, key: string) => `file-${hex(`${crawlId}\n${key}`, 32)}`;

/** Holders of the blob store: what a crawl stored (page text, clean HTML, documents) is held by the crawl. */
export const crawlBlobHolder = (crawlId: string) => `crawl-${crawlId}`;
