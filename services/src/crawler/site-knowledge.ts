import { randomUUID } from 'node:crypto';
import {
  comparePositions,
  crawlerMessages,
  crawlMessages,
  streamIds,
  type AllPosition,
  type KnowledgeFileKind,
  type PageCategory,
} from '@kesher/contracts';
import { crawlerSiteDecider, commitNeeded, type CrawlerSiteState } from '../domain/crawl/crawler-site.decider.js';
import { knowledgeFileDecider } from '../domain/knowledge-file/knowledge-file.decider.js';
import type { PlanAllowances, StorageLimitOf } from '../plans/index.js';
import type { BlobStore } from '../platform/blobs/blob-store.port.js';
import { aggregateStream } from '../platform/commands/aggregate-stream.js';
import type { CommandContext, CommandHandler } from '../platform/commands/command-handler.js';
import { DomainError } from '../platform/commands/decider.js';
import { StreamDeletedError, type EventStore } from '../platform/event-store/event-store.port.js';
import { crawlFileId, crawledPageId } from './page-identity.js';
import type { PageKind } from './crawl-runner.js';

/**
 * What an assistant's website holds as knowledge, and the three ways it changes: pages committed from a
 * crawl (new, or replacing a page whose content changed; unchanged pages are left alone and never read
 * again), a page turned off or on, pages deleted (by the owner, or as orphans). Each page is one knowledge
 * file with the page's address as its source, read by the ingest worker like any upload, and each file
 * holds one of the plan's file slots.
 *
 * Every step is safe to run again: file ids come from the crawl and the page, the site decider records a
 * page once per file, and a page recorded whose file was never uploaded (a crash in between) is uploaded
 * by the next run. The API (Smart Web Crawler dialog, Crawler Settings) and the crawler worker (crawls and
 * scheduled recrawls) both go through here.
 */
export interface SiteKnowledgeDeps {
  handle: CommandHandler;
  eventStore: EventStore;
  blobs: BlobStore;
  allowances: Pick<PlanAllowances, 'reserveFile' | 'releaseFiles'>;
  /** The owner's knowledge storage: crawled pages count like uploads (knowledge read model; the plan's limit). */
  storage?: { used: (ownerId: string) => Promise<number>; limitOf: StorageLimitOf };
}

/** A page of a crawl, as the crawl recorded it (the worker's aggregate or the API's read model). */
export interface CommitCandidate {
  key: string;
  url: string;
  title: string | null;
  kind: PageKind;
  characters: number;
  /** The page's content hash (extracted text or document); null when the crawl kept nothing to compare. */
  contentSha256: string | null;
  /** The clean main-content HTML (HTML pages). */
  htmlSha256: string | null;
  filename: string;
  isSalesPage: boolean;
  salesCategory: PageCategory | null;
  relevanceScore: number | null;
  etag: string | null;
  lastModified: string | null;
}

export interface CommitOutcome {
  /** Keys of the pages added or replaced. */
  committed: string[];
  unchanged: number;
  notAdded: Array<{ key: string; filename: string; reason: string }>;
  /** The last event written, for read-your-writes. */
  position: AllPosition | undefined;
}

/** The event types these writes record (what a route waits for the read models to show). */
export const siteKnowledgeEventTypes = [
  'CrawledPageCommitted',
  'CrawledPageToggled',
  'CrawledPagesDeleted',
  'KnowledgeFileUploaded',
  'KnowledgeFileDeleted',
] as const;

export const contentGone = crawlMessages.contentGone;

const KNOWLEDGE_KINDS: Record<PageKind, KnowledgeFileKind> = { html: 'html', pdf: 'pdf', docx: 'docx', txt: 'txt' };
/** Pages recorded per append: a crawl of 2,000 pages is 20 small writes, not one large one. */
const CHUNK = 100;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A recorded page and what its upload needs. */
interface RecordedPage {
  pageId: string;
  key: string;
  fileId: string;
  fileSha256: string;
  filename: string;
  kind: PageKind;
  bytes: number;
  url: string;
  replacedFileId: string | null;
}

/** The latest position one call wrote (each call has its own: calls run concurrently). */
function positionTracker() {
  let last: AllPosition | undefined;
  return {
    note(position: AllPosition | undefined) {
      if (position && (!last || comparePositions(position, last) > 0)) last = position;
    },
    get last() {
      return last;
    },
  };
}
type Note = (position: AllPosition | undefined) => void;

export function createSiteKnowledge(deps: SiteKnowledgeDeps) {
  const loadSite = async (assistantId: string, ownerId: string): Promise<CrawlerSiteState> => {
    const { state } = await aggregateStream(deps.eventStore, crawlerSiteDecider, streamIds.crawlerSite(assistantId));
    if (state.ownerId !== null && state.ownerId !== ownerId)
      throw new DomainError('not_found', crawlerMessages.urlNotFound);
    return state;
  };

  /** The knowledge file's bytes: the page's main content as a small HTML document, or the document itself. */
  async function fileOf(
    page: Pick<CommitCandidate, 'kind' | 'title' | 'htmlSha256' | 'contentSha256'>,
  ): Promise<Uint8Array | null> {
    if (page.kind !== 'html') return page.contentSha256 ? ((await deps.blobs.get(page.contentSha256)) ?? null) : null;
    const main = page.htmlSha256 ? await deps.blobs.get(page.htmlSha256) : undefined;
    if (!main) return null;
    const title = page.title ? `<title>${escapeHtml(page.title)}</title>` : '';
    return new TextEncoder().encode(
      `<!doctype html><html><head><meta charset="utf-8">${title}</head><body>${main.toString('utf8')}</body></html>`,
    );
  }

  async function deleteFiles(
    note: Note,
    context: CommandContext,
    ownerId: string,
    assistantId: string,
    fileIds: readonly string[],
  ) {
    for (const fileId of fileIds) {
      try {
        note(
          (
            await deps.handle(
              knowledgeFileDecider,
              streamIds.knowledgeFile(fileId),
              { type: 'DeleteKnowledgeFile', data: { fileId, ownerId } },
              context,
            )
          ).appended?.position,
        );
      } catch (error) {
        // Deleted already, or never uploaded: nothing to do.
        if (!(error instanceof StreamDeletedError) && !(error instanceof DomainError && error.kind === 'not_found'))
          throw error;
      }
    }
    if (fileIds.length > 0) await deps.allowances.releaseFiles(context, assistantId, fileIds);
  }

  /**
   * Uploads a recorded page's file unless it is there already, then deletes the file it replaced. Says
   * whether it uploaded, or why the page stays without a file.
   */
  async function ensureFile(
    note: Note,
    context: CommandContext,
    ownerId: string,
    assistantId: string,
    page: RecordedPage,
  ): Promise<{ uploaded: boolean; problem: string | null }> {
    const stream = streamIds.knowledgeFile(page.fileId);
    let uploaded = false;
    try {
      const { state } = await aggregateStream(deps.eventStore, knowledgeFileDecider, stream);
      if (state.status === 'none') {
        const upload = await deps.handle(
          knowledgeFileDecider,
          stream,
          {
            type: 'UploadKnowledgeFile',
            data: {
              fileId: page.fileId,
              assistantId,
              ownerId,
              filename: page.filename,
              kind: KNOWLEDGE_KINDS[page.kind],
              bytes: page.bytes,
              contentSha256: page.fileSha256,
              sourceUrl: page.url,
            },
          },
          context,
        );
        note(upload.appended?.position);
        uploaded = true;
      }
    } catch (error) {
      // The slot was reclaimed before the upload (plan-allowances.ts tombstones such streams): the page stays without a file.
      if (error instanceof StreamDeletedError)
        return {
          uploaded: false,
          problem: 'The page could not be added: the assistant reached its file limit meanwhile.',
        };
      throw error;
    }
    if (page.replacedFileId) await deleteFiles(note, context, ownerId, assistantId, [page.replacedFileId]);
    return { uploaded, problem: null };
  }

  return {
    /**
     * Puts a crawl's pages into the assistant's knowledge: new pages and pages whose content changed get a
     * file (a changed page's old file is deleted after), unchanged ones nothing. Stops adding at the plan's
     * file limit; the pages left out are reported with the reason.
     */
    async commitPages(
      context: CommandContext,
      input: { ownerId: string; assistantId: string; crawlId: string; pages: readonly CommitCandidate[] },
    ): Promise<CommitOutcome> {
      const { ownerId, assistantId, crawlId } = input;
      const written = positionTracker();
      const site = await loadSite(assistantId, ownerId);
      const outcome: CommitOutcome = { committed: [], unchanged: 0, notAdded: [], position: undefined };
      const repairs: RecordedPage[] = [];
      const toCommit: Array<{ page: CommitCandidate; pageId: string; fileId: string; replacing: string | undefined }> =
        [];
      const seen = new Set<string>();
      for (const page of input.pages) {
        if (seen.has(page.key)) continue;
        seen.add(page.key);
        const pageId = crawledPageId(assistantId, page.key);
        const fileId = crawlFileId(crawlId, page.key);
        const existing = site.pages.get(pageId);
        if (existing && existing.fileId === fileId) {
          // Recorded by an earlier run of this commit: make sure its file exists (counted as added if it did not).
          repairs.push(existing);
        } else if (!page.contentSha256 || !commitNeeded(existing, { fileId, contentSha256: page.contentSha256 }))
          outcome.unchanged++;
        else toCommit.push({ page, pageId, fileId, replacing: existing?.fileId ?? undefined });
      }

      const prepared: Array<RecordedPage & { page: CommitCandidate }> = [];
      let stored = deps.storage && toCommit.length > 0 ? await deps.storage.used(ownerId) : 0;
      const storageLimit = deps.storage && toCommit.length > 0 ? await deps.storage.limitOf(ownerId) : null;
      for (let index = 0; index < toCommit.length; index++) {
        const { page, pageId, fileId, replacing } = toCommit[index]!;
        const bytes = await fileOf(page);
        if (!bytes) {
          outcome.notAdded.push({ key: page.key, filename: page.filename, reason: contentGone });
          continue;
        }
        if (storageLimit && stored + bytes.byteLength > storageLimit.bytes) {
          for (const rest of toCommit.slice(index))
            outcome.notAdded.push({ key: rest.page.key, filename: rest.page.filename, reason: storageLimit.message });
          break;
        }
        stored += bytes.byteLength;
        try {
          // A changed page's new file takes the slot its old file gives back once the commit is recorded.
          await deps.allowances.reserveFile(context, ownerId, assistantId, fileId, 'crawl', replacing);
        } catch (error) {
          if (!(error instanceof DomainError && error.kind === 'forbidden')) throw error;
          for (const rest of toCommit.slice(index))
            outcome.notAdded.push({ key: rest.page.key, filename: rest.page.filename, reason: error.message });
          break;
        }
        // The file holds its bytes; the page holds them too, to make a new file if it is turned off and on.
        const blob = await deps.blobs.put(bytes, { holder: fileId });
        await deps.blobs.put(bytes, { holder: pageId });
        const item = {
          page,
          pageId,
          key: page.key,
          fileId,
          fileSha256: blob.sha256,
          filename: page.filename,
          kind: page.kind,
          bytes: bytes.byteLength,
          url: page.url,
          replacedFileId: null,
        };
        // Uploaded at once, before the next page's slot is taken: a slot whose file does not exist yet looks
        // abandoned to a taker at the limit (plan-allowances.ts), which would reclaim it.
        const { problem } = await ensureFile(written.note, context, ownerId, assistantId, item);
        if (problem) {
          outcome.notAdded.push({ key: page.key, filename: page.filename, reason: problem });
          continue;
        }
        prepared.push(item);
      }

      const recorded: RecordedPage[] = [];
      for (let i = 0; i < prepared.length; i += CHUNK) {
        const chunk = prepared.slice(i, i + CHUNK);
        const result = await deps.handle(
          crawlerSiteDecider,
          streamIds.crawlerSite(assistantId),
          {
            type: 'CommitPages',
            data: {
              ownerId,
              pages: chunk.map(({ page, pageId, fileId, fileSha256, bytes }) => ({
                assistantId,
                ownerId,
                pageId,
                crawlId,
                key: page.key,
                url: page.url,
                title: page.title ? page.title.slice(0, 500) : null,
                kind: page.kind,
                filename: page.filename,
                characters: page.characters,
                bytes,
                contentSha256: page.contentSha256!,
                fileId,
                fileSha256,
                isSalesPage: page.isSalesPage,
                salesCategory: page.salesCategory,
                relevanceScore: page.relevanceScore,
                etag: page.etag,
                lastModified: page.lastModified,
              })),
            },
          },
          context,
        );
        written.note(result.appended?.position);
        // What the decider recorded: those pages now have their file, and the file they replace goes.
        for (const event of result.events) {
          if (event.type !== 'CrawledPageCommitted') continue;
          recorded.push(chunk.find((candidate) => candidate.pageId === event.data.pageId)!);
          outcome.committed.push(event.data.key);
          if (event.data.replacedFileId)
            await deleteFiles(written.note, context, ownerId, assistantId, [event.data.replacedFileId]);
        }
        // A concurrent commit of the same page won: the file made here is not needed.
        const lost = chunk.filter((candidate) => !recorded.includes(candidate));
        if (lost.length > 0) {
          await deleteFiles(
            written.note,
            context,
            ownerId,
            assistantId,
            lost.map((item) => item.fileId),
          );
          outcome.unchanged += lost.length;
        }
      }

      for (const page of repairs) {
        const { uploaded, problem } = await ensureFile(written.note, context, ownerId, assistantId, page);
        if (problem) outcome.notAdded.push({ key: page.key, filename: page.filename, reason: problem });
        else if (uploaded) outcome.committed.push(page.key);
        else outcome.unchanged++;
      }
      outcome.position = written.last;
      return outcome;
    },

    /** Crawler Settings' toggle: off deletes the page's file (no answers from it); on makes a new file from its content. */
    async togglePage(
      context: CommandContext,
      input: { ownerId: string; assistantId: string; pageId: string; enabled: boolean },
    ): Promise<AllPosition | undefined> {
      const { ownerId, assistantId, pageId, enabled } = input;
      const written = positionTracker();
      const stream = streamIds.crawlerSite(assistantId);
      if (!enabled) {
        const result = await deps.handle(
          crawlerSiteDecider,
          stream,
          { type: 'TogglePage', data: { ownerId, pageId, enabled, newFileId: '' } },
          context,
        );
        written.note(result.appended?.position);
        const removed = result.events.flatMap((event) =>
          event.type === 'CrawledPageToggled' && event.data.removedFileId ? [event.data.removedFileId] : [],
        );
        await deleteFiles(written.note, context, ownerId, assistantId, removed);
        return written.last;
      }
      const page = (await loadSite(assistantId, ownerId)).pages.get(pageId);
      if (!page) throw new DomainError('not_found', crawlerMessages.urlNotFound);
      if (page.enabled) return undefined;
      const bytes = await deps.blobs.get(page.fileSha256);
      if (!bytes) throw new DomainError('conflict', contentGone);
      const fileId = `file-${randomUUID().replaceAll('-', '')}`;
      await deps.allowances.reserveFile(context, ownerId, assistantId, fileId, 'crawl');
      const stored = await deps.blobs.put(bytes, { holder: fileId });
      const result = await deps.handle(
        crawlerSiteDecider,
        stream,
        { type: 'TogglePage', data: { ownerId, pageId, enabled, newFileId: fileId } },
        context,
      );
      written.note(result.appended?.position);
      if (result.events.length === 0) {
        // Turned on by someone else meanwhile: give back what was taken for this file.
        await deps.allowances.releaseFiles(context, assistantId, [fileId]);
        await deps.blobs.release(fileId);
        return written.last;
      }
      await ensureFile(written.note, context, ownerId, assistantId, {
        ...page,
        fileId,
        fileSha256: stored.sha256,
        bytes: bytes.byteLength,
        replacedFileId: null,
      });
      return written.last;
    },

    /** Removes pages and their files (Crawler Settings' bulk delete, or orphans after a crawl). Returns how many went. */
    async deletePages(
      context: CommandContext,
      input: { ownerId: string; assistantId: string; pageIds: readonly string[]; reason: 'owner' | 'orphaned' },
    ): Promise<{ deleted: number; position: AllPosition | undefined }> {
      const { ownerId, assistantId, pageIds, reason } = input;
      const written = positionTracker();
      const result = await deps.handle(
        crawlerSiteDecider,
        streamIds.crawlerSite(assistantId),
        { type: 'DeletePages', data: { ownerId, pageIds, reason } },
        context,
      );
      written.note(result.appended?.position);
      let deleted = 0;
      for (const event of result.events) {
        if (event.type !== 'CrawledPagesDeleted') continue;
        deleted += event.data.pageIds.length;
        await deleteFiles(written.note, context, ownerId, assistantId, event.data.fileIds);
        await Promise.all(event.data.pageIds.map((id) => deps.blobs.release(id)));
      }
      return { deleted, position: written.last };
    },
  };
}

export type SiteKnowledge = ReturnType<typeof createSiteKnowledge>;
