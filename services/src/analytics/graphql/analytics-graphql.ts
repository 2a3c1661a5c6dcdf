import {
  AnalyticsHealthSchema,
  AssistantPerformanceSchema,
  ChannelCountSchema,
  DashboardQuerySchema,
  DashboardSchema,
  FeedbackAllStatsSchema,
  FeedbackStatsQuerySchema,
  FeedbackStatsSchema,
  KeywordListSchema,
  KeywordQuerySchema,
  KeywordSourceSchema,
  KeywordTrendsQuerySchema,
  KeywordTrendsSchema,
  LimitKindSchema,
  LimitsStatusSchema,
  LimitStateSchema,
  messages,
  PerformanceQuerySchema,
  PeriodSchema,
  QueriesQuerySchema,
  QueriesSchema,
  ReadModelHealthSchema,
  ReferralTypeSchema,
  ResponseTimeStatsSchema,
  SalesAnalyticsQuerySchema,
  SalesAnalyticsSchema,
  UsagePeriodSchema,
  UsageStatsQuerySchema,
  UsageStatsSchema,
  ViolationsQuerySchema,
  ViolationsSchema,
} from '@kesher/contracts';
import { ALL_OWNERS, ownerScope, type OwnerScope } from '@kesher/projections/analytics/shared/owner-scope';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { createRequire } from 'node:module';
import { GraphQLError, type ExecutionResult, type ValidationRule } from 'graphql';
import fastJson from 'fast-json-stringify';
import mercurius from 'mercurius';
import { z } from 'zod';
import type { ClosableSocket } from '../../identity/index.js';
import { DomainError } from '../../platform/commands/decider.js';
import type { AnalyticsService } from '../analytics-service.js';
import type { LimitsService } from '../limits-service.js';
import { EVERY_OWNER, type LiveCounters, type LiveCountersValue, type LiveKey } from '../live-counters.js';
import type { OperatorCheck } from '../operators.js';
import { queryCostRule } from './query-cost.rule.js';
import { queryDepthRule } from './query-depth.rule.js';
import { checkQueryShape, QueryShapeError, type QueryShapeLimits } from './query-shape.guard.js';
import { sdlFromZod } from './sdl-from-zod.js';

/** Who asks: the signed-in account behind the bearer token, and whether it is an operator. */
export interface Viewer {
  accountId: string;
  email: string;
  operator: boolean;
}

export interface AnalyticsGraphqlDeps {
  analytics: AnalyticsService;
  limits: LimitsService;
  /** Bearer token → account (the same authenticator as REST; used for WebSocket subscriptions). */
  authenticate: (token: string) => Promise<{ account: Parameters<OperatorCheck>[0] } | undefined>;
  /** A subscription's socket and the token it was opened with: closed when that token is signed out. */
  trackSocket?: (token: string, socket: ClosableSocket) => void;
  isOperator: OperatorCheck;
  /** Built by the plugin with the publisher it owns (mercurius' pubsub). */
  liveCounters: (publish: (key: LiveKey, value: LiveCountersValue) => Promise<void>) => LiveCounters;
  /**
   * GraphiQL at /api/v1/graphiql: to everyone (`NODE_ENV=development` only), or to operators, who send
   * their bearer token with the page's requests; anyone else is told it does not exist.
   */
  graphiql: 'everyone' | 'operators';
  /** Deepest selection allowed (default 6: the schema's deepest leaf is 5 levels down). */
  maxDepth?: number;
  /** Largest query cost allowed (see query-cost.rule.ts). */
  maxCost?: number;
}

const LiveCountersSchema = z.object({
  owner_id: z.string().nullable(),
  conversations: z.number().int(),
  messages: z.number().int(),
  feedback: z.number().int(),
  at: z.string(),
});
const KeywordListQuerySchema = KeywordQuerySchema.extend({ source: KeywordSourceSchema.default('customer') });
const ViewerSchema = z.object({ account_id: z.string(), email: z.string(), operator: z.boolean() });

/** The shared pieces are named once, wherever the DTOs use them. */
const NAMED = new Map<z.ZodType, string>([
  [PeriodSchema, 'Period'],
  [ResponseTimeStatsSchema, 'ResponseTimes'],
  [FeedbackStatsSchema, 'FeedbackStats'],
  [ChannelCountSchema, 'ChannelCount'],
  [ReferralTypeSchema, 'ReferralType'],
  [LimitKindSchema, 'LimitKind'],
  [LimitStateSchema, 'LimitState'],
  [ReadModelHealthSchema, 'ReadModelHealth'],
  [KeywordSourceSchema, 'KeywordSource'],
  [UsagePeriodSchema, 'UsagePeriod'],
]);

/**
 * The analytics read models as GraphQL: the REST calls' figures (the same use cases, the same DTOs as
 * types), scoped to the signed-in owner — `owner_id` arguments are for operators, who may also leave it
 * out to read every owner's — and live counters by subscription over WebSocket.
 */
export const typeDefs = `
${sdlFromZod(
  {
    Viewer: ViewerSchema,
    Dashboard: DashboardSchema,
    AssistantPerformance: AssistantPerformanceSchema,
    Queries: QueriesSchema,
    UsageStats: UsageStatsSchema,
    SalesAnalytics: SalesAnalyticsSchema,
    FeedbackAllStats: FeedbackAllStatsSchema,
    KeywordList: KeywordListSchema,
    KeywordTrends: KeywordTrendsSchema,
    AnalyticsHealth: AnalyticsHealthSchema,
    LimitsStatus: LimitsStatusSchema,
    Violations: ViolationsSchema,
    LiveCounters: LiveCountersSchema,
  },
  NAMED,
)}

type Query {
  "The signed-in account (and whether it is an operator)."
  viewer: Viewer!
  "The analytics page's figures over the last \`days\` days (UTC, today included)."
  dashboard(days: Int = 7, owner_id: ID): Dashboard!
  assistant_performance(assistant_id: Int!, days: Int = 30, owner_id: ID): AssistantPerformance!
  queries(limit: Int = 50, success_only: Boolean = false, assistant_id: Int, owner_id: ID): Queries!
  usage_stats(period: UsagePeriod = week, owner_id: ID): UsageStats!
  sales_analytics(days: Int = 30, limit: Int = 10, owner_id: ID): SalesAnalytics!
  feedback_stats(days: Int = 7, assistant_id: Int, owner_id: ID): FeedbackAllStats!
  keywords(source: KeywordSource = customer, days: Int = 30, limit: Int = 10, assistant_id: Int, owner_id: ID): KeywordList!
  keyword_trends(source: KeywordSource = customer, days: Int = 30, limit: Int = 5, assistant_id: Int, owner_id: ID): KeywordTrends!
  "One owner's limits (operators name the owner; default: themselves)."
  limits_status(owner_id: ID): LimitsStatus!
  violations(days: Int = 7, violation_type: LimitKind, owner_id: ID): Violations!
  health: AnalyticsHealth!
}

type Subscription {
  "All-time conversations, messages and feedback, sent at once and whenever they change (operators: every owner's sum without owner_id)."
  live_counters(owner_id: ID): LiveCounters!
}
`;

interface Context {
  viewer: Viewer | null;
  pubsub: { subscribe(topic: string): Promise<AsyncIterableIterator<unknown>> };
  /** Over WebSocket: the connection's socket and the bearer token its connection_init carried. */
  socket?: ClosableSocket;
  bearer?: string;
}

// mercurius loads graphql with require(), and graphql accepts a schema only in the copy that built it
// ("from another module or realm"), as mercurius takes an error as GraphQL's only from its own copy; an
// `import` may load the ESM build instead (the test runner does).
const mercuriusGraphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');
const { specifiedRules, validate } = mercuriusGraphql;

/** graphql's standard introspection query (GraphiQL's) is 15 levels deep; one more for later versions. */
const MAX_INTROSPECTION_DEPTH = 16;

/**
 * A GraphQL request's body, at most: GraphiQL's standard introspection query is 2 KB, the largest
 * query the app's tests build about 1 KB. (The attack that stalled the server was 173 KB.)
 */
const MAX_BODY_BYTES = 16 * 1024;

/**
 * The standard introspection query is under 200 tokens and uses 9 fragment spreads and no alias; these
 * leave room for hand-written queries and refuse documents built to make validation or execution slow.
 */
const SHAPE_LIMITS: QueryShapeLimits = { maxTokens: 2000, maxOperations: 10, maxAliases: 30, maxFragmentSpreads: 50 };

const topicOf = (key: LiveKey) => `live-counters:${key}`;

function viewerOf(context: Context): Viewer {
  if (!context.viewer) throw new GraphQLError(messages.authRequired, { extensions: { code: 'UNAUTHENTICATED' } });
  return context.viewer;
}

/** Whose figures: the viewer's own; an operator's choice (every owner when none is named). */
function scopeOf(context: Context, ownerId: string | null | undefined): OwnerScope {
  const viewer = viewerOf(context);
  if (viewer.operator) return ownerId ? ownerScope(ownerId) : ALL_OWNERS;
  if (ownerId && ownerId !== viewer.accountId)
    throw new GraphQLError(messages.forbidden, { extensions: { code: 'FORBIDDEN' } });
  return ownerScope(viewer.accountId);
}

/** One owner's: the viewer's own, or the one an operator names. */
function ownerOf(context: Context, ownerId: string | null | undefined): string {
  const scope = scopeOf(context, ownerId);
  return 'ownerId' in scope ? scope.ownerId : viewerOf(context).accountId;
}

/** Arguments pass the REST call's own query schema: the same ranges and limits, the same texts. */
function parsed<Schema extends z.ZodType>(schema: Schema, values: Record<string, unknown>): z.infer<Schema> {
  const defined = Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== null && value !== undefined),
  );
  const result = schema.safeParse(defined);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new GraphQLError(`${issue.path.join('.') || 'argument'}: ${issue.message}`, {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  }
  return result.data;
}

/** Use-case errors keep their text (an unknown assistant is "not found", as in REST). */
async function answer<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError)
      throw new GraphQLError(error.message, { extensions: { code: error.kind.toUpperCase() } });
    throw error;
  }
}

type Args = Record<string, unknown> & { owner_id?: string | null };

/**
 * A refusal before GraphQL runs, with its HTTP status (answerOf reads it). A GraphQL error of mercurius'
 * own copy is answered as it is; any other error is wrapped, and the wrapping formats its stack.
 */
const refusal = (message: string, code: string, status: number) =>
  Object.assign(new mercuriusGraphql.GraphQLError(message, { extensions: { code } }), { statusCode: status });

const statusOf = (error: unknown) => {
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  return typeof status === 'number' ? status : undefined;
};

/**
 * The answer to a request with errors. mercurius' default formatter logs every error at info with its
 * stack — a flood of refusals was a flood of log lines, and formatting each stack through source maps
 * the dearest part of a refusal — and answers 200 when a document is refused for several reasons at
 * once. Here a refusal keeps its status (400 for a refused document, however many its reasons) and is
 * not logged; only a failure nobody expected is, as the REST error handler does.
 */
function answerOf(execution: ExecutionResult & { errors: readonly GraphQLError[] }, log: FastifyBaseLogger) {
  const errors = execution.errors.flatMap((error) => {
    // A refused document: mercurius puts the validation errors inside one error of its own.
    const inner = (error.originalError as { errors?: unknown } | undefined)?.errors;
    return Array.isArray(inner) ? (inner as GraphQLError[]) : [error];
  });
  const refused = execution.data
    ? undefined
    : execution.errors
        .map((error) => statusOf(error) ?? statusOf(error.originalError))
        .find((status) => status !== undefined && status >= 400);
  for (const error of execution.errors) {
    const cause = error.originalError;
    if (
      cause &&
      !(cause instanceof GraphQLError || cause instanceof mercuriusGraphql.GraphQLError) &&
      (statusOf(cause) ?? 500) >= 500
    )
      log.error({ err: cause }, 'GraphQL request failed');
  }
  return {
    statusCode: refused ?? 200,
    response: {
      data: execution.data ?? null,
      errors: errors.map((error) =>
        typeof error.toJSON === 'function' ? error.toJSON() : { message: String((error as Error).message) },
      ),
    },
  };
}

/** The document's shape (see query-shape.guard.ts), its errors as 400s. */
function shapeChecked(source: string) {
  try {
    return checkQueryShape(source, SHAPE_LIMITS);
  } catch (error) {
    if (!(error instanceof QueryShapeError)) throw error;
    throw Object.assign(refusal(error.message, error.code, 400), error.locations ? { locations: error.locations } : {});
  }
}

export const analyticsGraphqlPlugin =
  (deps: AnalyticsGraphqlDeps): FastifyPluginAsync =>
  async (app) => {
    let live: LiveCounters | undefined;
    const { analytics, limits } = deps;
    // mercurius declares its routes with JSON Schema, not zod like the rest of the API: this plugin's
    // routes validate and serialize JSON Schema (its body schema keeps `query` a string — mercurius would
    // otherwise take an object there as a ready-made document).
    app.setValidatorCompiler(({ schema }) => {
      const parser = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
      return (data: unknown) => {
        const result = parser.safeParse(data);
        return result.success ? { value: data } : { error: new Error(z.prettifyError(result.error)) };
      };
    });
    app.setSerializerCompiler(({ schema }) => fastJson(schema as Parameters<typeof fastJson>[0]));
    // Out of the OpenAPI document (which is built from zod schemas): GraphQL describes itself by introspection.
    // GraphQL is for signed-in owners and operators only (the spec has no public use of it): a request
    // without a valid token is refused before its body is even read, and a signed-in one may send 16 KB.
    // The WebSocket upgrade on the same path authenticates with its connection_init instead.
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
      if (/\/graphql$/.test(route.url)) {
        route.bodyLimit = MAX_BODY_BYTES;
        route.preParsing = [
          ...hooks(route.preParsing),
          async (request: FastifyRequest) => refuseStrangersAndBulk(request),
        ];
      } else if (/\/graphiql(\/|$)/.test(route.url)) {
        route.onRequest = [
          ...hooks(route.onRequest),
          async (request, reply) =>
            void (showsGraphiql(request) || (await reply.status(404).send({ detail: messages.notFound }))),
        ];
      }
    });

    function refuseStrangersAndBulk(request: FastifyRequest) {
      if (request.ws) return;
      if (!request.account) throw refusal(messages.authRequired, 'UNAUTHENTICATED', 401);
      const length = Number(request.headers['content-length']);
      if (length > MAX_BODY_BYTES)
        throw refusal(
          `This request is too large: a GraphQL request may be at most ${MAX_BODY_BYTES / 1024} KB.`,
          'REQUEST_TOO_LARGE',
          413,
        );
    }

    function showsGraphiql(request: FastifyRequest) {
      return deps.graphiql === 'everyone' || (request.account !== null && deps.isOperator(request.account));
    }

    const resolvers = {
      Query: {
        viewer: (_root: unknown, _args: Args, context: Context) => {
          const viewer = viewerOf(context);
          return { account_id: viewer.accountId, email: viewer.email, operator: viewer.operator };
        },
        dashboard: (_root: unknown, args: Args, context: Context) =>
          answer(() => analytics.dashboard(scopeOf(context, args.owner_id), parsed(DashboardQuerySchema, args).days)),
        assistant_performance: (_root: unknown, args: Args, context: Context) =>
          answer(() =>
            analytics.performance(
              scopeOf(context, args.owner_id),
              Number(args.assistant_id),
              parsed(PerformanceQuerySchema, args).days,
            ),
          ),
        queries: (_root: unknown, args: Args, context: Context) => {
          const query = parsed(QueriesQuerySchema, {
            ...args,
            success_only: args.success_only === undefined ? undefined : String(args.success_only),
          });
          return answer(() =>
            analytics.queries(scopeOf(context, args.owner_id), {
              limit: query.limit,
              successOnly: query.success_only,
              assistantNumericId: query.assistant_id,
            }),
          );
        },
        usage_stats: (_root: unknown, args: Args, context: Context) =>
          answer(() =>
            analytics.usageStats(scopeOf(context, args.owner_id), parsed(UsageStatsQuerySchema, args).period),
          ),
        sales_analytics: (_root: unknown, args: Args, context: Context) => {
          const query = parsed(SalesAnalyticsQuerySchema, args);
          return answer(() => analytics.salesAnalytics(scopeOf(context, args.owner_id), query.days, query.limit));
        },
        feedback_stats: (_root: unknown, args: Args, context: Context) => {
          const query = parsed(FeedbackStatsQuerySchema, args);
          return answer(() => analytics.feedbackStats(scopeOf(context, args.owner_id), query.days, query.assistant_id));
        },
        keywords: (_root: unknown, args: Args, context: Context) => {
          const query = parsed(KeywordListQuerySchema, args);
          return answer(() =>
            analytics.keywordList(
              scopeOf(context, args.owner_id),
              query.source,
              query.days,
              query.limit,
              query.assistant_id,
            ),
          );
        },
        keyword_trends: (_root: unknown, args: Args, context: Context) => {
          const query = parsed(KeywordTrendsQuerySchema, args);
          return answer(() =>
            analytics.keywordTrends(
              scopeOf(context, args.owner_id),
              query.source,
              query.days,
              query.limit,
              query.assistant_id,
            ),
          );
        },
        limits_status: (_root: unknown, args: Args, context: Context) =>
          answer(() => limits.status(ownerOf(context, args.owner_id))),
        violations: (_root: unknown, args: Args, context: Context) => {
          const query = parsed(ViolationsQuerySchema, args);
          return answer(() => limits.violations(ownerOf(context, args.owner_id), query.days, query.violation_type));
        },
        health: (_root: unknown, _args: Args, context: Context) => {
          viewerOf(context);
          return analytics.health();
        },
      },
      Subscription: {
        live_counters: {
          subscribe: async function* (_root: unknown, args: Args, context: Context) {
            const scope = scopeOf(context, args.owner_id);
            const key = 'ownerId' in scope ? scope.ownerId : EVERY_OWNER;
            // Signing out ends the subscription: the socket closes with the token.
            if (context.socket && context.bearer) deps.trackSocket?.(context.bearer, context.socket);
            const stop = live!.watch(key);
            const updates = await context.pubsub.subscribe(topicOf(key));
            try {
              yield await live!.current(key);
              for await (const value of updates) yield value;
            } finally {
              stop();
              await updates.return?.();
            }
          },
          resolve: (value: LiveCountersValue) => value,
        },
      },
    };

    const limitRules: ValidationRule[] = [
      queryDepthRule({ maxDepth: deps.maxDepth ?? 6, maxIntrospectionDepth: MAX_INTROSPECTION_DEPTH }),
      queryCostRule({ maxCost: deps.maxCost ?? 400, rootFieldCost: 25 }),
    ];
    await app.register(mercurius, {
      schema: typeDefs,
      resolvers: resolvers as never,
      path: '/graphql',
      // Registered always; who may open it is decided per request (showsGraphiql).
      graphiql: true,
      validationRules: limitRules,
      errorFormatter: (execution, context) => answerOf(execution, context.reply?.log ?? app.log),
      // The shape guard parses within the same bound first; this keeps mercurius' own parse bounded too.
      graphql: { parseOptions: { maxTokens: SHAPE_LIMITS.maxTokens } },
      jit: 1,
      context: (request) => {
        const account = request.account;
        return {
          viewer: account ? { accountId: account.id, email: account.email, operator: deps.isOperator(account) } : null,
        };
      },
      subscription: {
        // Each connection's own socket, in its resolvers' context (so that sign-out can close it).
        context: (socket) => ({ socket }),
        // connection_init carries the bearer token: `{ authorization: 'Bearer …' }` (or under `headers`).
        onConnect: async ({ payload }) => {
          const raw = (payload?.authorization ?? payload?.Authorization ?? payload?.headers?.authorization) as unknown;
          if (typeof raw !== 'string' || !raw.startsWith('Bearer ')) return false;
          const session = await deps.authenticate(raw.slice(7).trim());
          if (!session) return false;
          const viewer: Viewer = {
            accountId: session.account.id,
            email: session.account.email,
            operator: deps.isOperator(session.account),
          };
          return { viewer, bearer: raw.slice(7).trim() };
        },
      },
    });

    // Runs on every request, cached documents too: a parse within 2,000 tokens is a fraction of a millisecond.
    app.graphql.addHook('preParsing', (_schema, source) => void shapeChecked(source));
    // mercurius neither bounds nor validates a subscription's document (it only parses and subscribes):
    // over WebSocket the same shape limits and the same rules apply as over HTTP.
    app.graphql.addHook('preSubscriptionParsing', (_schema, source) => void shapeChecked(source));
    app.graphql.addHook('preSubscriptionExecution', (schema, document) => {
      const errors = validate(schema, document, [...specifiedRules, ...limitRules]);
      if (errors.length > 0)
        throw refusal(errors.map((error) => error.message).join(' '), 'GRAPHQL_VALIDATION_FAILED', 400);
    });

    live = deps.liveCounters(
      (key, value) =>
        new Promise<void>((resolve) => app.graphql.pubsub.publish({ topic: topicOf(key), payload: value }, resolve)),
    );
    app.addHook('onClose', async () => live?.close());
  };

/** A route's hooks of one kind as a list (Fastify takes one function or several). */
function hooks<Hook>(value: Hook | Hook[] | undefined): Hook[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
