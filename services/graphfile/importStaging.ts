/**
 * A large import is staged: its content is written in chunks, each its own transaction,
 * on the line of a main branch that does not exist yet (the id is chosen first), so no
 * reader can see any of it and no transaction holds more than a chunk. The project and
 * its main are then created with that id in one small transaction, which publishes the
 * content (importProject.ts). A refused chunk removes what was staged before the error
 * is answered; a crash leaves a VStage record behind, and the worker's sweep removes
 * the staged records of a stage abandoned long enough (services/purge).
 *
 * The stage is held by a lease (STAGE_LEASE_MS), renewed under the stage's lock by
 * every transaction of the import, the publishing one included: the sweep takes only a
 * stage whose lease ran out, however long ago the import started, and once it has
 * taken one, the import's next transaction finds it gone and answers 503 instead of
 * publishing a project whose content the sweep is removing.
 */
import { DeltaError, ServiceUnavailableError } from '../../shared/errors/domainErrors';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { nowTimestamp } from '../../shared/http/timestamps';
import {
  appendTouches,
  BatchApplier,
  mainView,
  recordedText,
  refreshFindings,
  requireWithinQuota,
  touchesOf,
  writePositions,
} from '../graph';
import type { BranchUsage } from '../graph';
import { purgeLine } from '../purge';
import { inFileTerms } from './fileErrors';
import type { ImportPlan } from './importPlan';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { closeStage, holdStage, openStage } from './store/graphFileQueries';

/** Overrides of the configured staging (config.staging), for tests. */
export interface StagingOptions {
  /** A plan of more deltas than this is staged; a smaller one is written in one transaction. */
  stageAbove?: number;
  /** Deltas per staged transaction. */
  stageChunk?: number;
}

const ZERO: BranchUsage = { nodes: 0, edges: 0, bytes: 0 };

/** How long a stage stays the import's without a transaction of the import renewing it. */
export const STAGE_LEASE_MS = 10 * 60_000;

/**
 * First in each transaction of a staged import: the stage's lock and a renewed lease;
 * 503 when the sweep took the stage for abandoned (the import stalled past its lease).
 */
export async function holdImportStage(tx: QueryRunner, line: string): Promise<void> {
  const held = await tx.one(holdStage, { line, until: Date.now() + STAGE_LEASE_MS });
  if (!held)
    throw new ServiceUnavailableError(
      'the import ran out of time while it was written; nothing was created',
      1,
    );
}

/** Writes the plan's content on line `line` at version 0, chunk by chunk; answers the
 * usage it adds (refusing, in file terms, what a single import would refuse). */
export async function stageContent(
  ctx: ServiceContext,
  line: string,
  plan: ImportPlan,
  chunk: number,
): Promise<BranchUsage> {
  const view = mainView(line, 0);
  const usage: BranchUsage = { ...ZERO, bytes: Buffer.byteLength(recordedText(plan.deltas)) };
  requireWithinQuota(ctx.config.quotas, ZERO, usage);
  await ctx.executor.write(openStage, {
    line,
    kind: 'import',
    now: nowTimestamp(),
    until: Date.now() + STAGE_LEASE_MS,
  });
  for (let from = 0; from < plan.deltas.length; from += chunk) {
    const deltas = plan.deltas.slice(from, from + chunk);
    await ctx.executor.writeTx(async (tx) => {
      await holdImportStage(tx, line);
      const applier = new BatchApplier(tx, view, {
        maxDepth: ctx.config.limits.maxNestingDepth,
      });
      try {
        await applier.applyAll(deltas);
      } catch (error) {
        if (error instanceof DeltaError) throw inFileTerms(error, plan.nodeCount);
        throw error;
      }
      // the line is new and keeps its findings from its first version (no branch yet)
      await refreshFindings(tx, view, true);
      await appendTouches(tx, line, 0, touchesOf(deltas));
      usage.nodes += applier.usage.nodes;
      usage.edges += applier.usage.edges;
      requireWithinQuota(ctx.config.quotas, ZERO, usage);
    });
  }
  for (let from = 0; from < plan.positions.length; from += chunk) {
    const positions = plan.positions.slice(from, from + chunk);
    await ctx.executor.writeTx(async (tx) => {
      await holdImportStage(tx, line);
      await writePositions(tx, view, positions);
    });
  }
  return usage;
}

/** Removes what was staged on `line` and its VStage record (the import was refused). */
export async function abortStage(ctx: ServiceContext, line: string): Promise<void> {
  await purgeLine(ctx.executor, line);
  await ctx.executor.write(closeStage, { line });
}
