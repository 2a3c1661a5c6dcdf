import { useSyncExternalStore } from 'react';
import { crawlSession } from '../crawl-session';

/** The crawl being watched (restored from session storage after a reload), or null. */
export const useActiveCrawl = () => useSyncExternalStore(crawlSession.subscribe, crawlSession.get, () => null);
