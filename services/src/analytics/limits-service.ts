import {
  chatMessages,
  fileMessages,
  limitState,
  messages,
  nextUsageMonthStart,
  planMessages,
  usageMonth,
  type LimitKind,
  type LimitsStatus,
} from '@kesher/contracts';
import type { z } from 'zod';
import type {
  CheckableLimitSchema,
  LimitCheckSchema,
  LimitsAnalyticsSchema,
  LimitTrendsSchema,
  PlanLimitsViewSchema,
  TrendsQuerySchema,
  UsageHistorySchema,
  ViolationsSchema,
} from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';
import {
  dailyActivityQueries,
  type ActivityFigures,
} from '@kesher/projections/analytics/daily-activity/daily-activity.queries';
import { limitViolationQueries } from '@kesher/projections/analytics/limit-violations/limit-violations.queries';
import { daysOf, lastDays, ownerScope, type DayRange } from '@kesher/projections/analytics/shared/owner-scope';
import { usageQueries } from '@kesher/projections/usage/usage.queries';
import { DomainError } from '../platform/commands/decider.js';
import type { PlanOf } from '../plans/index.js';
import { createAssistantDirectory } from './assistant-directory.js';

export interface LimitsServiceDeps {
  readDb: Queryable;
  planOf: PlanOf;
  clock: () => Date;
  /** Bytes of the owner's knowledge files. */
  storageUsed: (ownerId: string) => Promise<number>;
  /** The knowledge files of one of the owner's assistants (max_files counts per assistant). */
  filesOf: (ownerId: string, assistantId: string) => Promise<number>;
  /** The storage limit in force (bytes), when the deployment sets its own (KNOWLEDGE_STORAGE_LIMIT_BYTES). */
  storageLimitBytes?: number;
  /** Read-your-writes: waits until the owner's accepted messages are counted. */
  settled?: (ownerId: string) => Promise<unknown>;
}

/** The newest refusals listed at most; the total counts every one. */
const VIOLATIONS_LISTED = 500;
const MB = 1024 * 1024;

/** The text a refusal carried, from its kind and limit (the same texts the refusals send). */
export function violationMessage(kind: LimitKind, limit: number): string {
  switch (kind) {
    case 'monthly_messages':
      return chatMessages.monthlyLimitReached(limit);
    case 'assistants':
      return messages.assistantLimitReached(limit);
    case 'files':
      return messages.fileLimitReached(limit);
    case 'storage':
      return fileMessages.storageFull;
    case 'chat_limit':
      return chatMessages.chatLimitReached(limit);
  }
}

/**
 * A check whose amount would go over a limit not yet reached: it says so with what is left, instead of
 * "has reached its plan's limit of 5 files" while 1 of 5 is used (issue 22 item 15).
 */
export function wouldExceedMessage(kind: Exclude<LimitKind, 'chat_limit'>, limit: number, remaining: number): string {
  const what = {
    monthly_messages: 'monthly messages',
    assistants: 'assistants',
    files: 'files for this assistant',
    storage: 'knowledge storage (bytes)',
  }[kind];
  return `This would go over your plan's limit of ${limit} ${what}: ${remaining} left.`;
}

const nouns: Record<LimitKind, string> = {
  monthly_messages: 'monthly messages',
  assistants: 'assistants',
  files: 'files',
  storage: 'knowledge storage',
  chat_limit: 'messages per conversation',
};

function figure(used: number, limit: number) {
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    used: round(used),
    limit,
    remaining: round(Math.max(0, limit - used)),
    percentage: limit > 0 ? Math.round((used / limit) * 1000) / 10 : used > 0 ? 100 : 0,
    state: limitState(used, limit),
  };
}

const usageOf = (f: ActivityFigures | undefined, violations: number) => ({
  messages: f?.queries ?? 0,
  conversations: f?.conversations ?? 0,
  answers: f?.answers ?? 0,
  tokens: (f?.promptTokens ?? 0) + (f?.completionTokens ?? 0),
  violations,
});

/** Monday of the week `day` is in (UTC). */
function weekStart(day: string): string {
  const t = Date.parse(`${day}T00:00:00Z`);
  const weekday = (new Date(t).getUTCDay() + 6) % 7;
  return new Date(t - weekday * 86_400_000).toISOString().slice(0, 10);
}
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const monthStart = (day: string, back: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1)).toISOString().slice(0, 10);
};

/**
 * The limits page's use cases: the plan, the usage against it with warnings and recommendations, the
 * history and trends of usage, and the refusals recorded (LimitViolated). Always the signed-in owner's.
 */
export function createLimitsService(deps: LimitsServiceDeps) {
  const activity = dailyActivityQueries(deps.readDb);
  const violations = limitViolationQueries(deps.readDb);
  const usage = usageQueries(deps.readDb);
  const assistants = createAssistantDirectory(deps.readDb);

  async function status(
    ownerId: string,
  ): Promise<LimitsStatus & { storageBytes: number; assistantCount: number; messages: number }> {
    await deps.settled?.(ownerId);
    const now = deps.clock();
    const month = usageMonth(now);
    const [plan, messagesUsed, bytes, assistantCount] = await Promise.all([
      deps.planOf(ownerId),
      usage.messagesInMonth(ownerId, month),
      deps.storageUsed(ownerId),
      assistants.count(ownerScope(ownerId)),
    ]);
    const storageLimitMb =
      deps.storageLimitBytes !== undefined ? deps.storageLimitBytes / MB : plan.limits.max_storage_mb;
    const summary = {
      chat: { total_messages: figure(messagesUsed, plan.limits.max_messages_per_month) },
      assistants: { total: figure(assistantCount, plan.limits.max_assistants) },
      storage: { used_mb: figure(bytes / MB, storageLimitMb) },
    };
    const measured: { type: LimitKind; figure: ReturnType<typeof figure> }[] = [
      { type: 'monthly_messages', figure: summary.chat.total_messages },
      { type: 'assistants', figure: summary.assistants.total },
      { type: 'storage', figure: summary.storage.used_mb },
    ];
    const pressing = measured.filter(
      (m) => m.figure.state === 'warning' || m.figure.state === 'critical' || m.figure.state === 'reached',
    );
    return {
      tier: plan.tier,
      period_start: `${month}-01T00:00:00.000Z`,
      period_end: nextUsageMonthStart(now).toISOString(),
      // At 100 % nothing more is allowed: not within the limits any more (the bands say 'reached').
      within_limits: measured.every((m) => m.figure.used < m.figure.limit),
      limits_summary: summary,
      warnings: pressing.map((m) => ({
        type: m.type,
        state: m.figure.state,
        message:
          m.figure.state === 'reached'
            ? `You have reached your plan's limit of ${nouns[m.type]} (${m.figure.used} of ${m.figure.limit}).`
            : `You have used ${Math.floor(m.figure.percentage)}% of your plan's ${nouns[m.type]} (${m.figure.used} of ${m.figure.limit}).`,
      })),
      recommendations: pressing.map((m) => ({
        type: m.type,
        message:
          m.type === 'monthly_messages'
            ? 'Upgrade your plan for more monthly messages, or wait for the limit to reset on the 1st.'
            : m.type === 'storage'
              ? 'Delete knowledge files you no longer need, or upgrade your plan for more storage.'
              : `Upgrade your plan for more ${nouns[m.type]}.`,
      })),
      storageBytes: bytes,
      assistantCount,
      messages: messagesUsed,
    };
  }

  const stripInternals = ({
    storageBytes: _b,
    assistantCount: _a,
    messages: _m,
    ...rest
  }: Awaited<ReturnType<typeof status>>): LimitsStatus => rest;

  async function history(ownerId: string, r: DayRange) {
    const scope = ownerScope(ownerId);
    const [perDay, refusals] = await Promise.all([activity.perDay(scope, r), violations.perDay(scope, r)]);
    return daysOf(r).map((date) => ({ date, ...usageOf(perDay.get(date), refusals.get(date) ?? 0) }));
  }

  return {
    async limits(ownerId: string): Promise<z.infer<typeof PlanLimitsViewSchema>> {
      const plan = await deps.planOf(ownerId);
      const now = deps.clock();
      return {
        tier: plan.tier,
        plan_name: plan.name,
        limits: plan.limits,
        features: plan.features,
        period_start: `${usageMonth(now)}-01T00:00:00.000Z`,
        period_end: nextUsageMonthStart(now).toISOString(),
      };
    },

    status: async (ownerId: string) => stripInternals(await status(ownerId)),

    async analytics(ownerId: string): Promise<z.infer<typeof LimitsAnalyticsSchema>> {
      const scope = ownerScope(ownerId);
      const now = deps.clock();
      const [current, conversations, week, month] = await Promise.all([
        status(ownerId),
        activity.liveCounters([ownerId]),
        violations.perKind(scope, lastDays(now, 7)),
        violations.perKind(scope, lastDays(now, 30)),
      ]);
      return {
        limits_status: stripInternals(current),
        quick_stats: {
          total_assistants: current.assistantCount,
          total_conversations: conversations[0]?.conversations ?? 0,
          storage_used_mb: Math.round((current.storageBytes / MB) * 100) / 100,
          messages_this_month: current.messages,
          violations_last_7_days: week.reduce((sum, k) => sum + k.count, 0),
        },
        violations_by_type: month.map((k) => ({ type: k.kind, count: k.count })),
      };
    },

    async check(
      ownerId: string,
      request: { limit_type: z.infer<typeof CheckableLimitSchema>; amount: number; assistant_id?: number },
    ): Promise<z.infer<typeof LimitCheckSchema>> {
      const current = await status(ownerId);
      const plan = await deps.planOf(ownerId);
      let used: number;
      let limit: number;
      switch (request.limit_type) {
        case 'monthly_messages':
          used = current.messages;
          limit = plan.limits.max_messages_per_month;
          break;
        case 'assistants':
          used = current.assistantCount;
          limit = plan.limits.max_assistants;
          break;
        case 'storage':
          used = current.storageBytes;
          limit = deps.storageLimitBytes ?? plan.limits.max_storage_mb * MB;
          break;
        case 'files': {
          if (request.assistant_id === undefined)
            throw new DomainError('invalid', planMessages.filesCheckNeedsAssistant);
          const assistant = await assistants.byNumericId(ownerScope(ownerId), request.assistant_id);
          if (!assistant) throw new DomainError('not_found', messages.assistantNotFound);
          used = await deps.filesOf(ownerId, assistant.id);
          limit = plan.limits.max_files;
          break;
        }
      }
      const allowed = used + request.amount <= limit;
      return {
        limit_type: request.limit_type,
        allowed,
        used,
        limit,
        remaining: Math.max(0, limit - used),
        requested: request.amount,
        message: allowed
          ? null
          : used >= limit
            ? violationMessage(request.limit_type, limit)
            : wouldExceedMessage(request.limit_type, limit, limit - used),
      };
    },

    async history(ownerId: string, days: number): Promise<z.infer<typeof UsageHistorySchema>> {
      const rows = await history(ownerId, lastDays(deps.clock(), days));
      const totals = rows.reduce(
        (sum, row) => ({
          messages: sum.messages + row.messages,
          conversations: sum.conversations + row.conversations,
          answers: sum.answers + row.answers,
          tokens: sum.tokens + row.tokens,
          violations: sum.violations + row.violations,
        }),
        usageOf(undefined, 0),
      );
      return { days, history: rows, totals };
    },

    async violations(ownerId: string, days: number, kind?: LimitKind): Promise<z.infer<typeof ViolationsSchema>> {
      const scope = ownerScope(ownerId);
      const r = lastDays(deps.clock(), days);
      const [rows, perKind] = await Promise.all([
        violations.list(scope, r, { kind, limit: VIOLATIONS_LISTED }),
        violations.perKind(scope, r),
      ]);
      const names = await assistants.byIds(rows.flatMap((row) => (row.assistantId ? [row.assistantId] : [])));
      const counted = kind ? perKind.filter((k) => k.kind === kind) : perKind;
      return {
        days,
        violations: rows.map((row) => ({
          id: row.id,
          type: row.kind,
          message: violationMessage(row.kind, row.limit),
          limit: row.limit,
          used: row.used,
          requested: row.requested,
          assistant_id: row.assistantId ? (names.get(row.assistantId)?.numericId ?? null) : null,
          assistant_name: row.assistantId ? (names.get(row.assistantId)?.name ?? null) : null,
          refused: row.refused,
          occurred_at: row.occurredAt.toISOString(),
        })),
        total: counted.reduce((sum, k) => sum + k.count, 0),
        by_type: counted.map((k) => ({ type: k.kind, count: k.count })),
      };
    },

    async trends(
      ownerId: string,
      query: z.infer<typeof TrendsQuerySchema>,
    ): Promise<z.infer<typeof LimitTrendsSchema>> {
      const today = deps.clock().toISOString().slice(0, 10);
      const starts: string[] = [];
      for (let back = query.periods - 1; back >= 0; back--) {
        if (query.period_type === 'daily') starts.push(addDays(today, -back));
        else if (query.period_type === 'weekly') starts.push(addDays(weekStart(today), -7 * back));
        else starts.push(monthStart(today, back));
      }
      const rows = await history(ownerId, { from: starts[0]!, to: today });
      const periods = starts.map((start, index) => {
        const end = index + 1 < starts.length ? addDays(starts[index + 1]!, -1) : today;
        const inside = rows.filter((row) => row.date >= start && row.date <= end);
        const sum = (pick: (row: (typeof rows)[number]) => number) =>
          inside.reduce((total, row) => total + pick(row), 0);
        const label =
          query.period_type === 'monthly'
            ? start.slice(0, 7)
            : query.period_type === 'weekly'
              ? `Week of ${start}`
              : start;
        return {
          label,
          start_date: start,
          end_date: end,
          messages: sum((r) => r.messages),
          conversations: sum((r) => r.conversations),
          answers: sum((r) => r.answers),
          tokens: sum((r) => r.tokens),
          violations: sum((r) => r.violations),
        };
      });
      return {
        period_type: query.period_type,
        periods: periods.map((p, index) => {
          const before = periods[index - 1]?.messages;
          return { ...p, change_percent: before ? Math.round(((p.messages - before) / before) * 1000) / 10 : null };
        }),
      };
    },
  };
}

export type LimitsService = ReturnType<typeof createLimitsService>;
