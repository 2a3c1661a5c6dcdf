import { crawlerMessages, streamIds } from '@kesher/contracts';
import { assistantDecider } from '../../domain/assistant/assistant.decider.js';
import { crawlerSiteDecider, type CrawlerSiteEvent } from '../../domain/crawl/crawler-site.decider.js';
import { aggregateStream, type Recorded } from '../../platform/commands/aggregate-stream.js';
import { handleCommand, type CommandContext } from '../../platform/commands/command-handler.js';
import type { EventStore } from '../../platform/event-store/event-store.port.js';

/**
 * The assistant's crawler switch (its Edit page) governs its site's schedule (issue 22): switched off, no
 * scheduled recrawl runs (the schedule is paused, and Crawler Settings says why); switched on again, the
 * schedule resumes where it was. The configuration and the pages held stay either way.
 *
 * Off means an owner's choice: a switch that is off and was never changed is left alone. Before issue 22
 * item 9 a site set up from the dashboard left the assistant's switch off while its schedule ran, and
 * those schedules keep running until their owner changes the switch.
 */
export const crawlerSwitchEventTypes: readonly string[] = ['AssistantUpdated'];

/** Whether the owner switched the assistant's crawler off (and it is off now): scheduled recrawls must not run. */
export async function crawlerSwitchedOff(eventStore: EventStore, assistantId: string): Promise<boolean> {
  const assistant = await aggregateStream(eventStore, assistantDecider, streamIds.assistant(assistantId));
  if (assistant.state.status !== 'active' || assistant.state.profile.web_crawler.enabled) return false;
  return assistant.events.some((event) => event.type === 'AssistantUpdated' && event.data.changes.web_crawler);
}

/**
 * Brings the site's schedule in line with the assistant's switch: paused while it is switched off,
 * resumed when it is on again and the pause was the switch's (a pause for the plan stays). Idempotent:
 * it looks at both aggregates as they are now, so a redelivered or replayed event changes nothing more.
 */
export async function followCrawlerSwitch(
  eventStore: EventStore,
  assistantId: string,
  context: CommandContext,
): Promise<void> {
  const off = await crawlerSwitchedOff(eventStore, assistantId);
  const streamId = streamIds.crawlerSite(assistantId);
  const site = await aggregateStream(eventStore, crawlerSiteDecider, streamId);
  const config = site.state.config;
  if (!config || !site.state.ownerId) return;
  const from = { state: site.state, revision: site.revision };
  if (off) {
    // Already paused (by the plan or by an earlier delivery), or no schedule: the decider records nothing.
    await handleCommand(
      eventStore,
      crawlerSiteDecider,
      streamId,
      {
        type: 'PauseSchedule',
        data: {
          configId: config.configId,
          reason: crawlerMessages.scheduleSwitchedOff,
          dueAt: context.now.toISOString(),
        },
      },
      context,
      { from },
    );
    return;
  }
  if (!site.state.schedulePaused || lastPauseReason(site.events) !== crawlerMessages.scheduleSwitchedOff) return;
  // Saving the interval of a paused schedule resumes it (the decider records it even unchanged).
  await handleCommand(
    eventStore,
    crawlerSiteDecider,
    streamId,
    {
      type: 'UpdateCrawlerConfig',
      data: {
        configId: config.configId,
        ownerId: site.state.ownerId,
        changes: { crawlInterval: config.crawlInterval },
      },
    },
    context,
    { from },
  );
}

/** Why the schedule is paused now: the last pause, unless a later save of the interval (or a new configuration) ended it. */
function lastPauseReason(events: readonly Recorded<CrawlerSiteEvent>[]): string | null {
  let reason: string | null = null;
  for (const event of events) {
    if (event.type === 'CrawlerSchedulePaused') reason = event.data.reason;
    else if (event.type === 'CrawlerConfigured' || event.type === 'CrawlerConfigDeleted') reason = null;
    else if (event.type === 'CrawlerConfigUpdated' && event.data.changes.crawlInterval !== undefined) reason = null;
  }
  return reason;
}
