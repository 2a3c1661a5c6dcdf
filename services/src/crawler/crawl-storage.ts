/**
 * The owner's knowledge storage as every limit reads it (uploads, crawled pages, the limits page, the
 * billing usage): the knowledge files, plus what the owner's crawls and previews recorded in the event
 * log. Before this a crawl could store any amount of records and count nothing; now they are bounded
 * per crawl (crawl-runner's address budget, crawl-recording's links per page) and counted per owner, so
 * a full storage refuses the next crawl like the next upload.
 */
export function withCrawlRecords<Reads extends { storageUsed(ownerId: string): Promise<number> }>(
  reads: Reads,
  crawlRecords: (ownerId: string) => Promise<number>,
): Reads {
  return {
    ...reads,
    async storageUsed(ownerId: string) {
      const [files, crawls] = await Promise.all([reads.storageUsed(ownerId), crawlRecords(ownerId)]);
      return files + crawls;
    },
  };
}
