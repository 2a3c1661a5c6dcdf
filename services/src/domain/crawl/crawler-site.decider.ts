import { crawlerMessages, type CrawledPageCommitted, type CrawlerSettings } from '@kesher/contracts';
import { DomainError, type Decider, type EventOf } from '../../platform/commands/decider.js';

/**
 * An assistant's website (stream `crawlersite-<assistantId>`): its crawler configuration and the crawled
 * pages it holds as knowledge, one knowledge file per page. Commits are idempotent (a page recorded with
 * the same file again, or with the content it already holds, records nothing), which is what lets the
 * crawler worker run a commit again after a crash. Pages are keyed by `pageId`, stable per assistant and
 * address, so a recrawl finds the page it refreshes.
 *
 * Like the crawl decider, `evolve` updates the page map of the state it is given: every fold starts from
 * a fresh `initialState()`.
 */
const crawlerSiteEventTypes = [
  'CrawlerConfigured',
  'CrawlerConfigUpdated',
  'CrawlerConfigDeleted',
  'CrawlerSchedulePaused',
  'CrawledPageCommitted',
  'CrawledPageToggled',
  'CrawledPagesDeleted',
] as const;
export type CrawlerSiteEvent = EventOf<(typeof crawlerSiteEventTypes)[number]>;

export interface SitePage extends CrawledPageCommitted {
  enabled: boolean;
  /** The page's current file: null while disabled. */
  currentFileId: string | null;
}

export interface CrawlerSiteState {
  assistantId: string | null;
  ownerId: string | null;
  config: (CrawlerSettings & { configId: string }) | null;
  /** A due recrawl found the plan without scheduled recrawl: no next crawl until the interval is saved again. */
  schedulePaused: boolean;
  pages: Map<string, SitePage>;
}

type SettingsInput = CrawlerSettings;
type PageToCommit = Omit<CrawledPageCommitted, 'replacedFileId'>;

export type CrawlerSiteCommand =
  /** POST /web-crawler/: the assistant's configuration, created (with `configId`) or changed. */
  | {
      type: 'ConfigureCrawler';
      data: { assistantId: string; ownerId: string; configId: string; settings: SettingsInput };
    }
  | { type: 'UpdateCrawlerConfig'; data: { configId: string; ownerId: string; changes: Partial<SettingsInput> } }
  | { type: 'DeleteCrawlerConfig'; data: { configId: string; ownerId: string } }
  /** The scheduler: a recrawl came due on a plan that does not include scheduled recrawl. */
  | { type: 'PauseSchedule'; data: { configId: string; reason: string; dueAt: string } }
  | { type: 'CommitPages'; data: { ownerId: string; pages: readonly PageToCommit[] } }
  | { type: 'TogglePage'; data: { ownerId: string; pageId: string; enabled: boolean; newFileId: string } }
  | { type: 'DeletePages'; data: { ownerId: string; pageIds: readonly string[]; reason: 'owner' | 'orphaned' } };

const configNotFound = () => new DomainError('not_found', crawlerMessages.configNotFound);
const urlNotFound = () => new DomainError('not_found', crawlerMessages.urlNotFound);

const settingKeys = ['websiteUrl', 'crawlInterval', 'maxPages', 'maxDepth', 'deleteOrphanedPages'] as const;

/** What the wanted settings change; saving the interval of a paused schedule resumes it, even unchanged. */
function changesFrom(
  current: CrawlerSettings,
  wanted: Partial<CrawlerSettings>,
  paused: boolean,
): Partial<CrawlerSettings> {
  const changes: Partial<CrawlerSettings> = {};
  for (const key of settingKeys) {
    if (wanted[key] !== undefined && wanted[key] !== current[key]) Object.assign(changes, { [key]: wanted[key] });
  }
  if (paused && wanted.crawlInterval !== undefined) changes.crawlInterval = wanted.crawlInterval;
  return changes;
}

/**
 * Whether a page of a crawl brings anything new: a page the assistant does not hold, or holds with
 * other content. A disabled page is left alone (the owner turned it off), and one already recorded with
 * this very file is a redelivered commit.
 */
export function commitNeeded(
  existing: SitePage | undefined,
  page: Pick<PageToCommit, 'fileId' | 'contentSha256'>,
): boolean {
  if (!existing) return true;
  if (existing.fileId === page.fileId || !existing.enabled) return false;
  return existing.contentSha256 !== page.contentSha256;
}

export const crawlerSiteDecider: Decider<CrawlerSiteState, CrawlerSiteCommand, CrawlerSiteEvent> = {
  eventTypes: crawlerSiteEventTypes,
  initialState: () => ({ assistantId: null, ownerId: null, config: null, schedulePaused: false, pages: new Map() }),

  evolve(state, event) {
    switch (event.type) {
      case 'CrawlerConfigured': {
        const { assistantId, ownerId, configId, ...settings } = event.data;
        return { ...state, assistantId, ownerId, config: { configId, ...settings }, schedulePaused: false };
      }
      case 'CrawlerConfigUpdated':
        return state.config
          ? {
              ...state,
              config: { ...state.config, ...event.data.changes },
              schedulePaused: state.schedulePaused && event.data.changes.crawlInterval === undefined,
            }
          : state;
      case 'CrawlerConfigDeleted':
        return { ...state, config: null, schedulePaused: false };
      case 'CrawlerSchedulePaused':
        return { ...state, schedulePaused: true };
      case 'CrawledPageCommitted':
        state.pages.set(event.data.pageId, { ...event.data, enabled: true, currentFileId: event.data.fileId });
        return { ...state, assistantId: event.data.assistantId, ownerId: state.ownerId ?? event.data.ownerId };
      case 'CrawledPageToggled': {
        const page = state.pages.get(event.data.pageId);
        if (page)
          state.pages.set(page.pageId, {
            ...page,
            enabled: event.data.enabled,
            currentFileId: event.data.fileId,
            fileId: event.data.fileId ?? page.fileId,
          });
        return state;
      }
      case 'CrawledPagesDeleted':
        for (const pageId of event.data.pageIds) state.pages.delete(pageId);
        return state;
      default:
        return state;
    }
  },

  decide(command, state) {
    const owned = (ownerId: string) => state.ownerId === null || state.ownerId === ownerId;
    switch (command.type) {
      case 'ConfigureCrawler': {
        const { assistantId, ownerId, configId, settings } = command.data;
        if (!owned(ownerId)) throw configNotFound();
        if (!state.config)
          return [{ type: 'CrawlerConfigured', data: { assistantId, ownerId, configId, ...settings } }];
        const changes = changesFrom(state.config, settings, state.schedulePaused);
        return Object.keys(changes).length === 0
          ? []
          : [{ type: 'CrawlerConfigUpdated', data: { assistantId, configId: state.config.configId, changes } }];
      }

      case 'UpdateCrawlerConfig': {
        const { configId, ownerId, changes } = command.data;
        if (!state.config || state.config.configId !== configId || !owned(ownerId) || !state.assistantId)
          throw configNotFound();
        const changed = changesFrom(state.config, changes, state.schedulePaused);
        return Object.keys(changed).length === 0
          ? []
          : [{ type: 'CrawlerConfigUpdated', data: { assistantId: state.assistantId, configId, changes: changed } }];
      }

      case 'DeleteCrawlerConfig': {
        const { configId, ownerId } = command.data;
        if (!state.config || state.config.configId !== configId || !owned(ownerId) || !state.assistantId)
          throw configNotFound();
        return [{ type: 'CrawlerConfigDeleted', data: { assistantId: state.assistantId, configId } }];
      }

      case 'PauseSchedule': {
        const { configId, reason, dueAt } = command.data;
        // Deleted, replaced, already paused or without a schedule since it came due: nothing to pause.
        if (
          !state.config ||
          state.config.configId !== configId ||
          !state.assistantId ||
          state.schedulePaused ||
          state.config.crawlInterval === 'none'
        )
          return [];
        return [{ type: 'CrawlerSchedulePaused', data: { assistantId: state.assistantId, configId, reason, dueAt } }];
      }

      case 'CommitPages': {
        if (!owned(command.data.ownerId)) throw urlNotFound();
        const seen = new Set<string>();
        const out: CrawlerSiteEvent[] = [];
        for (const page of command.data.pages) {
          if (seen.has(page.pageId)) continue;
          seen.add(page.pageId);
          const existing = state.pages.get(page.pageId);
          if (!commitNeeded(existing, page)) continue;
          out.push({
            type: 'CrawledPageCommitted',
            data: { ...page, ownerId: command.data.ownerId, replacedFileId: existing?.currentFileId ?? null },
          });
        }
        return out;
      }

      case 'TogglePage': {
        const { ownerId, pageId, enabled, newFileId } = command.data;
        const page = state.pages.get(pageId);
        if (!page || !owned(ownerId) || !state.assistantId) throw urlNotFound();
        if (page.enabled === enabled) return [];
        return [
          {
            type: 'CrawledPageToggled',
            data: enabled
              ? { assistantId: state.assistantId, pageId, enabled, fileId: newFileId, removedFileId: null }
              : { assistantId: state.assistantId, pageId, enabled, fileId: null, removedFileId: page.currentFileId },
          },
        ];
      }

      case 'DeletePages': {
        const { ownerId, pageIds, reason } = command.data;
        if (!owned(ownerId) || !state.assistantId) throw urlNotFound();
        const found = [...new Set(pageIds)].filter((id) => state.pages.has(id));
        if (found.length === 0) {
          if (reason === 'owner') throw urlNotFound();
          return [];
        }
        const fileIds = found.flatMap((id) => state.pages.get(id)!.currentFileId ?? []);
        return [
          { type: 'CrawledPagesDeleted', data: { assistantId: state.assistantId, pageIds: found, fileIds, reason } },
        ];
      }
    }
  },
};
