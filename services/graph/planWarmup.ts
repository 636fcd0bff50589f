/**
 * Plans the graph service's largest statements before the first requests need them.
 * Neo4j plans a statement the first time it runs, by its text and the types of its
 * parameters, and keeps the plan for as long as it runs. The scoped reads and a batch's
 * first statement are long (the visibility rule applies to each record they read, and
 * walks are unrolled a level at a time), so each first run after Neo4j starts spends
 * seconds planning (measured on a 2-core machine: 4 to 10 s each, 15 to 18 s for the
 * first while Neo4j's JVM compiles its planner), and the first request of each kind
 * waits for it; a batch waits holding its branch's lock.
 *
 * So a process that serves these operations runs each once as it starts, in the
 * background, for ids that name nothing: through the same command a request runs, so
 * the statement sent and the types of its parameters are the request's, and the plan
 * Neo4j caches is the one the first request finds. Each ends in a not-found answer, as
 * nothing is found; the batch finds no branch, so nothing is locked or written. A
 * process starting against a Neo4j that has the plans spends milliseconds.
 *
 * Neo4j's plans go when its database stops, while the processes that warmed them may run
 * on (a Neo4j pod restarted alone). So each such process also asks every RESTART_CHECK_MS
 * when the database last started, and warms the plans again after a start it has not
 * warmed them since.
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../../shared/errors/domainErrors';
import type { Principal } from '../../shared/http/principal';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { runForCaller } from '../../shared/neo4j/callerCancellation';
import { withinMs } from '../../shared/redis/queueConnection';
import { applyDeltas } from './commands/applyDeltas';
import { readBoundary } from './commands/readBoundary';
import { readNeighborhood } from './commands/readNeighborhood';
import { readSubtree } from './commands/readSubtree';
import { readTopLevel } from './commands/readTopLevel';
import { searchNodes } from './commands/searchNodes';
import { databaseStartTime } from './store/planWarmupQueries';

/** The first run of one operation's command, for ids that name nothing. */
type Warmup = (ctx: ServiceContext, principal: Principal) => Promise<unknown>;

/** An id that names nothing in the store (a fresh one each time). */
const unknownId = () => randomUUID();

/**
 * The operations warmed, by operationId, each with the call its requests make first: the
 * web viewer's and the API's first reads (the top level, a subtree at its default
 * depth, a node's neighborhood, a boundary view, a search) and a batch that adds a node
 * (the statement that locks the branch and reads what the additions need).
 */
const WARMUPS: Record<string, Warmup> = {
  getTopLevel: (ctx, principal) => readTopLevel(ctx, principal, unknownId()),
  getSubtree: (ctx, principal) => readSubtree(ctx, principal, unknownId(), unknownId()),
  getNeighborhood: (ctx, principal) => readNeighborhood(ctx, principal, unknownId(), unknownId()),
  getBoundary: (ctx, principal) => readBoundary(ctx, principal, unknownId(), unknownId()),
  searchNodes: (ctx, principal) => searchNodes(ctx, principal, unknownId(), 'plan warm-up'),
  applyDeltas: (ctx, principal) =>
    applyDeltas(ctx, principal, unknownId(), {
      expected_version: 0,
      deltas: [
        {
          type: 'add_node',
          node: {
            id: unknownId(),
            kind: 'behavior',
            parent_id: null,
            data: { name: 'plan warm-up' },
          },
        },
      ],
    }),
};

/** The operations whose first statements warmPlans plans, in the order it runs them. */
export const WARMED_OPERATIONS: readonly string[] = Object.keys(WARMUPS);

/** How each warmed operation ended: planned (its not-found answer), failed, or skipped. */
export interface WarmupReport {
  ms: number;
  operations: Record<string, { outcome: 'planned' | 'failed' | 'skipped'; ms: number }>;
}

/**
 * Runs, one after another, the warm-ups of those of `operationIds` that have one (the
 * operations the process serves), as a caller with no user and no project; stops when
 * `ctx.stopping` is aborted (what runs then is cancelled). Never throws: a warm-up that
 * fails otherwise than with not-found is logged and reported, and the next one runs.
 */
export async function warmPlans(
  ctx: ServiceContext,
  operationIds: readonly string[],
): Promise<WarmupReport> {
  // a caller with no user and no scope: it could read or write nothing even if an id
  // named something (each command answers not-found before it checks a scope)
  const principal: Principal = {
    userId: unknownId(),
    keyId: 'plan-warmup',
    scopes: new Set(),
    projectAllowlist: null,
  };
  const started = performance.now();
  const report: WarmupReport = { ms: 0, operations: {} };
  for (const operationId of WARMED_OPERATIONS.filter((id) => operationIds.includes(id))) {
    const at = performance.now();
    const outcome = ctx.stopping?.aborted
      ? 'skipped'
      : await warmOne(ctx, operationId, () =>
          runForCaller(ctx.stopping, () => WARMUPS[operationId](ctx, principal)),
        );
    report.operations[operationId] = { outcome, ms: Math.round(performance.now() - at) };
  }
  report.ms = Math.round(performance.now() - started);
  ctx.logger.info(report, 'plans of the largest statements warmed');
  return report;
}

/** A warm-up started with a process (warmPlansAtStart). */
export interface StartedWarmup {
  /**
   * Stops the checks of the database's start and waits for a warm-up running, at most
   * CLOSE_WAIT_MS: for the process's close, once `ctx.stopping` is aborted. The statement
   * running then is cancelled, but Neo4j may still be planning it, and the store is
   * closed meanwhile.
   */
  close(): Promise<void>;
}

/** How long a process's close waits for its warm-up to end. */
const CLOSE_WAIT_MS = 1000;

/** How often a process that warmed the plans asks when the database last started. */
export const RESTART_CHECK_MS = 30_000;

/**
 * As a process starts: warms the plans of those of `operationIds` it serves (none for a
 * gateway in front of service processes), in the background, and again after each later
 * start of the database it sees (checked every `checkEveryMs`), unless the configuration
 * turns it off (NEO4J_WARM_PLANS=false).
 */
export function warmPlansAtStart(
  ctx: ServiceContext,
  operationIds: readonly string[],
  { checkEveryMs = RESTART_CHECK_MS }: { checkEveryMs?: number } = {},
): StartedWarmup {
  const served = WARMED_OPERATIONS.some((id) => operationIds.includes(id));
  if (!ctx.config.neo4j.warmPlans || !served) return { close: async () => {} };
  /** The database start the last warm-up followed (undefined: not known). */
  let warmedSince: string | undefined;
  /** Warms the plans at first, and later when the database started since they were. */
  const warmSinceStart = async (first: boolean) => {
    const startedAt = await databaseStartedAt(ctx);
    if (!first && (startedAt === undefined || startedAt === warmedSince)) return;
    if (warmedSince !== undefined)
      ctx.logger.info({ startedAt }, 'neo4j database started again: warming the plans again');
    warmedSince = startedAt;
    await warmPlans(ctx, operationIds);
  };
  let running: Promise<void> | undefined;
  const run = (first: boolean) => {
    if (running || ctx.stopping?.aborted) return;
    running = warmSinceStart(first)
      .catch((error: unknown) =>
        ctx.logger.warn({ err: (error as Error).message }, 'plan warm-up failed'),
      )
      .finally(() => (running = undefined));
  };
  run(true);
  const timer = setInterval(() => run(false), checkEveryMs);
  timer.unref();
  return {
    close: async () => {
      clearInterval(timer);
      if (!running) return;
      await withinMs(CLOSE_WAIT_MS, running, 'the plan warm-up').catch((error: unknown) =>
        ctx.logger.info({ err: (error as Error).message }, 'plan warm-up left running'),
      );
    },
  };
}

/**
 * When the service's database last started, as Neo4j tells it; undefined when it cannot
 * be told (Neo4j unreachable, or a user not allowed to list databases): then the plans
 * are warmed once, as the process starts.
 */
async function databaseStartedAt(ctx: ServiceContext): Promise<string | undefined> {
  try {
    const [row] = await ctx.executor.read<{ startedAt: string | null }>(databaseStartTime, {
      database: ctx.config.neo4j.database ?? null,
    });
    return row?.startedAt ?? undefined;
  } catch (error) {
    ctx.logger.debug({ err: (error as Error).message }, 'neo4j database start not read');
    return undefined;
  }
}

/** One warm-up: planned when it answers not-found, as it should; failed otherwise. */
async function warmOne(
  ctx: ServiceContext,
  operationId: string,
  run: () => Promise<unknown>,
): Promise<'planned' | 'failed' | 'skipped'> {
  try {
    await run();
    ctx.logger.warn({ operationId }, 'plan warm-up found something where nothing exists');
    return 'failed';
  } catch (error) {
    if (error instanceof NotFoundError) return 'planned';
    if (ctx.stopping?.aborted) return 'skipped';
    ctx.logger.warn({ operationId, err: (error as Error).message }, 'plan warm-up failed');
    return 'failed';
  }
}
