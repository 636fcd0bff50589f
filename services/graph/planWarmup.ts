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
 * nothing is found; the batch finds no branch, so nothing is locked or written. An
 * import writes before anything could be not found, so its warm-up writes a record of
 * each kind on a line no one knows, through the function an import writes with, and
 * rolls the transaction back (newLineContent.ts rehearseNewLineWrites). Before that, a
 * process that serves imports writes a small import and removes it, committed
 * (WarmupOptions.stagedImport): a rollback never runs the code that commits records,
 * which Neo4j's JVM would otherwise compile during the first large import. A process
 * starting against a Neo4j that has the plans spends milliseconds planning (and about
 * 1.5 s on that small import).
 *
 * Neo4j's plans go when it stops, while the processes that warmed them may run on (a
 * Neo4j pod restarted alone). So each such process also asks every RESTART_CHECK_MS when
 * the Neo4j process answering started, and warms the plans again after a start it has
 * not warmed them after.
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
import { rehearseNewLineWrites } from './newLineContent';
import { neo4jStartTime } from './store/planWarmupQueries';

/**
 * The first run of one operation's command, for ids that name nothing (an import's
 * writes: rehearsed on an unknown line and rolled back, after the small import its
 * options may commit and remove).
 */
type Warmup = (
  ctx: ServiceContext,
  principal: Principal,
  options: WarmupOptions,
) => Promise<unknown>;

/** What a process adds to the warm-up from services the graph service does not import. */
export interface WarmupOptions {
  /**
   * Writes a small import and removes it, committed (graphfile importRehearsal.ts): run
   * first in the import's warm-up, so that Neo4j's JVM compiles the code that commits
   * records before a first large import needs it, not during it.
   */
  stagedImport?: (ctx: ServiceContext) => Promise<unknown>;
}

/** An id that names nothing in the store (a fresh one each time). */
const unknownId = () => randomUUID();

/**
 * The operations warmed, by operationId, each with the call its requests make first: the
 * web viewer's and the API's first reads (the top level, a subtree at its default
 * depth, a node's neighborhood, a boundary view, a search), an import's writes of its
 * records, and a batch that adds a node (the statement that locks the branch and reads
 * what the additions need).
 */
const WARMUPS: Record<string, Warmup> = {
  getTopLevel: (ctx, principal) => readTopLevel(ctx, principal, unknownId()),
  getSubtree: (ctx, principal) => readSubtree(ctx, principal, unknownId(), unknownId()),
  getNeighborhood: (ctx, principal) => readNeighborhood(ctx, principal, unknownId(), unknownId()),
  getBoundary: (ctx, principal) => readBoundary(ctx, principal, unknownId(), unknownId()),
  searchNodes: (ctx, principal) => searchNodes(ctx, principal, unknownId(), 'plan warm-up'),
  // a small import committed and removed (when the process gives one), then an
  // import's writes (nodes, ports, wires, findings) in each shape, rolled back:
  // no request of it can end in not-found before it writes
  importProject: async (ctx, _principal, { stagedImport }) => {
    if (stagedImport) await stagedImport(ctx);
    return rehearseNewLineWrites(ctx);
  },
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
  options: WarmupOptions = {},
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
          runForCaller(ctx.stopping, () => WARMUPS[operationId](ctx, principal, options)),
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
   * Stops the checks of Neo4j's start and waits for a warm-up running, at most
   * CLOSE_WAIT_MS: for the process's close, once `ctx.stopping` is aborted. The statement
   * running then is cancelled, but Neo4j may still be planning it, and the store is
   * closed meanwhile.
   */
  close(): Promise<void>;
}

/** How long a process's close waits for its warm-up to end. */
const CLOSE_WAIT_MS = 1000;

/** How often a process that warmed the plans asks when Neo4j started. */
export const RESTART_CHECK_MS = 30_000;

/** Starts of Neo4j kept as warmed after (one per member of a cluster), at most. */
const STARTS_KEPT = 16;

/**
 * As a process starts: warms the plans of those of `operationIds` it serves (none for a
 * gateway in front of service processes), in the background, and again after each start
 * of Neo4j it has not warmed them after (checked every `checkEveryMs`), unless the
 * configuration turns it off (NEO4J_WARM_PLANS=false).
 */
export function warmPlansAtStart(
  ctx: ServiceContext,
  operationIds: readonly string[],
  { checkEveryMs = RESTART_CHECK_MS, ...options }: { checkEveryMs?: number } & WarmupOptions = {},
): StartedWarmup {
  const served = WARMED_OPERATIONS.some((id) => operationIds.includes(id));
  if (!ctx.config.neo4j.warmPlans || !served) return { close: async () => {} };
  /**
   * The starts of Neo4j the plans were warmed after: a cluster's members each have their
   * own, and a read may reach any of them.
   */
  const warmedAfter = new Set<string>();
  /** Warms the plans at first, and later after a start of Neo4j they were not warmed after. */
  const warmSinceStart = async (first: boolean) => {
    const startedAt = await neo4jStartedAt(ctx);
    if (!first && (startedAt === undefined || warmedAfter.has(startedAt))) return;
    if (!first) ctx.logger.info({ startedAt }, 'neo4j started since the plans were warmed');
    if (startedAt !== undefined) {
      if (warmedAfter.size >= STARTS_KEPT) warmedAfter.clear();
      warmedAfter.add(startedAt);
    }
    await warmPlans(ctx, operationIds, options);
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
 * When the Neo4j process answering started, as it tells it; undefined when it cannot be
 * told (Neo4j unreachable, or a user not allowed its JMX procedure): where it never can,
 * the plans are warmed once, as the process starts.
 */
async function neo4jStartedAt(ctx: ServiceContext): Promise<string | undefined> {
  try {
    const [row] = await ctx.executor.read<{ startedAt: string | null }>(neo4jStartTime);
    return row?.startedAt ?? undefined;
  } catch (error) {
    ctx.logger.debug({ err: (error as Error).message }, 'neo4j start not read');
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
