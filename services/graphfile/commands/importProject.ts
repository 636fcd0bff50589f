/**
 * POST /v1/projects/import (importProject): creates a project from a graph file and answers like
 * project create (201). Scope graph:write. The file is read and upgraded (schema_version 3-6), its
 * name checked like a project name, and its content parsed like one batch before anything is
 * written; then the project, its main branch and the content are written in one transaction, the
 * content through the BatchApplier under every invariant. Any error: nothing is created.
 * Containment is at most MAX_NESTING_DEPTH deep and the content within the branch quotas (422
 * depth_limit_exceeded, branch_quota_exceeded, in file terms). The project gets the server defaults
 * for intent and language.
 * `graphctl import` does the same for a named user.
 */
import { DeltaError, InvalidInputError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import {
  BatchApplier,
  recordedText,
  requireWithinQuota,
  saveUsage,
  writePositions,
} from '../../graph';
import { checkUserName, ensureUser, requireScope } from '../../identity';
import {
  checkProjectName,
  CreatedProject,
  DEFAULT_INTENT,
  DEFAULT_LANGUAGE,
  insertProject,
} from '../../projects';
import { inFileTerms } from '../fileErrors';
import { readGraphFile } from '../graphFileReader';
import { planImport } from '../importPlan';

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
): Promise<CreatedProject> {
  requireScope(principal, 'graph:write');
  return importAs(ctx, body, async () => principal);
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
): Promise<CreatedProject> {
  const name = checkUserName(user);
  return importAs(ctx, body, async (tx) => {
    return {
      userId: await ensureUser(tx, name),
      keyId: 'graphctl',
      scopes: new Set(['graph:write']),
      projectAllowlist: null,
    };
  });
}

/** Reads and plans the file, then writes owner, project, main and content in one transaction. */
async function importAs(
  ctx: ServiceContext,
  body: unknown,
  owner: (tx: QueryRunner) => Promise<Principal>,
): Promise<CreatedProject> {
  const file = readGraphFile(body);
  const name = projectName(file.projectName);
  const plan = planImport(file);
  return ctx.executor.writeTx(async (tx) => {
    const principal = await owner(tx);
    const created = await insertProject(tx, ctx, principal, {
      name,
      intent: DEFAULT_INTENT,
      language: DEFAULT_LANGUAGE,
    });
    const applier = new BatchApplier(tx, created.main.id, {
      maxDepth: ctx.config.limits.maxNestingDepth,
    });
    try {
      await applier.applyAll(plan.deltas);
    } catch (error) {
      if (error instanceof DeltaError) throw inFileTerms(error, plan.nodeCount);
      throw error;
    }
    // main starts with the file's content: its counters and its quotas
    const usage = {
      ...applier.usage,
      bytes: Buffer.byteLength(recordedText(plan.deltas)),
    };
    requireWithinQuota(ctx.config.quotas, { nodes: 0, edges: 0, bytes: 0 }, usage);
    await saveUsage(tx, created.main.id, usage);
    await writePositions(tx, created.main.id, plan.positions);
    return created;
  });
}
