/**
 * POST /v1/projects/import (importProject): creates a project from a graph file and answers like
 * project create (201). Scope graph:write. The file is read and upgraded (schema_version 3-6), its
 * name checked like a project name, its content parsed like one batch and then checked whole,
 * in memory, as the first content of the new main (checkNewLineContent: every invariant a
 * batch of additions is held to, with a batch's answers); any refusal: nothing is created
 * (a staged import writes its records while they are checked, on a line no reader knows,
 * and removes them on a refusal). The content is main's version 0 (the answer's
 * main_branch.version): it is written on main's line before or in the transaction that
 * creates main, so no reader ever sees main at 0 without it, and a branch forked at 0 reads
 * it beneath its own records. A file of more than STAGE_RECORDS deltas is staged
 * (importStaging.ts): written STAGE_CHUNK records per transaction on the line of a main that
 * does not exist yet, published by creating the project and main in one small transaction, so
 * a 100k-node import never holds one huge transaction; an error at any point removes what was
 * staged, and nothing is created.
 * Containment is at most MAX_NESTING_DEPTH deep and the content within the branch quotas (422
 * depth_limit_exceeded, branch_quota_exceeded, in file terms). The project gets the server defaults
 * for intent and language.
 * `graphctl import` does the same for a named user, and reports its progress.
 */
import { randomUUID } from 'node:crypto';
import { InvalidInputError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import {
  appendChange,
  mainView,
  recordCount,
  recordedBytes,
  requireWithinQuota,
  saveUsage,
  writeNewLineContent,
} from '../../graph';
import type { BranchUsage, ChangeEntry, NewLineContent, RecordsFirst } from '../../graph';
import { checkUserName, ensureUser, requireKeyForAllProjects, requireScope } from '../../identity';
import {
  checkProjectName,
  CreatedProject,
  DEFAULT_INTENT,
  DEFAULT_LANGUAGE,
  insertProject,
} from '../../projects';
import { readGraphFile } from '../graphFileReader';
import { checkImportContent, importRecordsFirst, planImport } from '../importPlan';
import { abortStage, holdImportStage, stageContent } from '../importStaging';
import type { ProgressListener, StagingOptions } from '../importStaging';
import { deleteStageRecord } from '../../purge';

/** The file's project_name, under the rules of a project name. */
function projectName(raw: unknown): string {
  try {
    return checkProjectName(raw);
  } catch (error) {
    if (error instanceof InvalidInputError)
      throw new InvalidInputError(error.code, `project_name: ${error.message}`);
    throw error;
  }
}

export async function importProject(
  ctx: ServiceContext,
  principal: Principal,
  body: unknown,
  staging: StagingOptions = {},
): Promise<CreatedProject> {
  requireScope(principal, 'graph:write');
  requireKeyForAllProjects(principal);
  return importAs(ctx, body, async () => principal, staging);
}

/**
 * graphctl import: the named user (created when new, like `keys create`) owns the
 * project; the user is created in the same transaction, so a refused file leaves
 * nothing behind.
 */
export async function importProjectForUser(
  ctx: ServiceContext,
  user: string,
  body: unknown,
  progress?: ProgressListener,
): Promise<CreatedProject> {
  const name = checkUserName(user);
  const owner: Owner = async (tx) => ({
    userId: await ensureUser(tx, name),
    keyId: 'graphctl',
    scopes: new Set(['graph:write']),
    projectAllowlist: null,
  });
  return importAs(ctx, body, owner, {}, progress);
}

type Owner = (tx: QueryRunner) => Promise<Principal>;

/** A file read and named, and what the import writes of it: what either way of writing it needs. */
interface ImportWrite {
  name: string;
  /** The id chosen for main: its line holds nothing before the import writes it. */
  mainId: string;
  usage: BranchUsage;
  owner: Owner;
}

/** Main's first change (version 0): the file's content, counted, not its deltas. */
function importEntry(principal: Principal, usage: { nodes: number; edges: number }): ChangeEntry {
  return {
    kind: 'import',
    actorId: principal.userId,
    now: nowTimestamp(),
    deltas: null,
    imported: { nodes: usage.nodes, edges: usage.edges },
  };
}

/**
 * Reads and plans the file, then writes owner, project, main and content: a small
 * content checked whole first and written in one transaction; a large one staged
 * (importStaging.ts), its records written while it is checked. Main's counters are
 * known from the records before either, and held to the quotas first.
 */
async function importAs(
  ctx: ServiceContext,
  body: unknown,
  owner: Owner,
  staging: StagingOptions = {},
  progress: ProgressListener = () => {},
): Promise<CreatedProject> {
  const file = readGraphFile(body);
  const name = projectName(file.projectName);
  const plan = planImport(file);
  const mainId = randomUUID();
  const maxDepth = ctx.config.limits.maxNestingDepth;
  const staged = plan.deltas.length > (staging.stageAbove ?? ctx.config.staging.records);
  const content = staged
    ? importRecordsFirst(plan, mainId, maxDepth)
    : checkImportContent(plan, mainId, maxDepth);
  const usage = { ...content.usage, bytes: recordedBytes(plan.deltas) };
  // main starts with the file's content: its counters and its quotas
  requireWithinQuota(ctx.config.quotas, { nodes: 0, edges: 0, bytes: 0 }, usage);
  const write: ImportWrite = { name, mainId, usage, owner };
  const created =
    'rest' in content
      ? await importStaged(ctx, write, content, {
          chunk: staging.stageChunk ?? ctx.config.staging.chunk,
          writers: ctx.config.staging.writers,
          progress,
        })
      : await importWhole(ctx, write, content, progress);
  progress({ stage: 'published' });
  return created;
}

/** Owner, project, main and the whole content in one transaction (a small import). */
async function importWhole(
  ctx: ServiceContext,
  write: ImportWrite,
  content: NewLineContent,
  progress: ProgressListener,
): Promise<CreatedProject> {
  const records = recordCount(content);
  progress({ stage: 'checked', ...content.usage, records });
  const created = await ctx.executor.writeTx(async (tx) => {
    await writeNewLineContent(tx, mainView(write.mainId, 0), content);
    return createOverContent(tx, ctx, write);
  });
  progress({ stage: 'written', written: records, records });
  return created;
}

/**
 * The owner, the project and its main (id `mainId`) created over main's content, written
 * before or in the same transaction: main's counters, and its first change, the import
 * (its touches are derived from the content's records: the graph service's importTouches.ts).
 */
async function createOverContent(
  tx: QueryRunner,
  ctx: ServiceContext,
  over: ImportWrite,
): Promise<CreatedProject> {
  const principal = await over.owner(tx);
  const created = await insertProject(tx, ctx, principal, {
    name: over.name,
    intent: DEFAULT_INTENT,
    language: DEFAULT_LANGUAGE,
    mainId: over.mainId,
  });
  await saveUsage(tx, over.mainId, over.usage);
  await appendChange(tx, over.mainId, importEntry(principal, over.usage), []);
  return created;
}

/** The content staged on main's line first (checked as it is written), then the project
 * and main created over it in one small transaction (the name and the project cap are
 * checked there). */
async function importStaged(
  ctx: ServiceContext,
  write: ImportWrite,
  content: RecordsFirst,
  options: { chunk: number; writers: number; progress: ProgressListener },
): Promise<CreatedProject> {
  const { mainId } = write;
  try {
    await stageContent(ctx, mainId, content, options);
    return await ctx.executor.writeTx(async (tx) => {
      // the stage is still this import's, and stays so until this transaction ends
      await holdImportStage(tx, mainId);
      const created = await createOverContent(tx, ctx, write);
      await deleteStageRecord(tx, mainId);
      return created;
    });
  } catch (error) {
    await abortStage(ctx, mainId).catch((cleanup: unknown) =>
      ctx.logger.warn(
        { line: mainId, err: (cleanup as Error).message },
        'staged import not removed; the worker sweep removes it later',
      ),
    );
    throw error;
  }
}
