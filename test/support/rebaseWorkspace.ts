/**
 * Builders for rebase tests (rebaseBranch): a branch behind main, its rebase (or dry
 * run) through HTTP, and the resolution of a conflict named as the preview names it.
 */
import { expect } from 'chai';
import type { ApiResponse } from './client';
import type { BranchHandle, MergeProject } from './mergeWorkspace';
import { mergeProject } from './mergeWorkspace';
import { newUser } from './harness';

export interface Behind {
  p: MergeProject;
  /** The branch merged into main after `b` forked. */
  a: BranchHandle;
  /** The branch behind main. */
  b: BranchHandle;
}

/** Seeds main, forks a and b at the same main version, applies, merges a: b is behind. */
export async function behind(
  seed: unknown[],
  onMain: unknown[],
  onBranch: unknown[],
): Promise<Behind> {
  const p = await mergeProject(await newUser());
  if (seed.length > 0) await p.seed(seed);
  const a = await p.fork();
  const b = await p.fork();
  if (onMain.length > 0) await a.apply(onMain);
  if (onBranch.length > 0) await b.apply(onBranch);
  await a.mergeOk();
  return { p, a, b };
}

/** POST /v1/branches/{id}/rebase as the project's user, at the handle's version. */
export function rebase(
  p: MergeProject,
  b: BranchHandle,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return p.user.api.post(
    `/v1/branches/${b.id}/rebase`,
    { expected_version: b.version, ...body },
    { headers },
  );
}

/** Rebases and expects 200; the handle follows the branch's new version. */
export async function rebaseOk(
  p: MergeProject,
  b: BranchHandle,
  body: Record<string, unknown> = {},
): Promise<any> {
  const res = await rebase(p, b, body);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  b.version = res.body.branch.version;
  return res.body;
}

/** A resolution of `conflict` (as the preview lists it), for `field` where it has fields. */
export function resolve(
  conflict: any,
  choice: 'main' | 'branch' | 'value',
  value?: unknown,
  field: string | null = conflict.fields.length > 0 ? conflict.fields[0] : null,
) {
  const deleteConflict = ['deleted_on_main', 'deleted_on_branch_modified_on_main'].includes(
    conflict.reason,
  );
  return {
    reason: conflict.reason,
    entity_kind: conflict.entity_kind,
    entity_id: conflict.entity_id,
    field: deleteConflict ? null : field,
    choice,
    ...(choice === 'value' ? { value } : {}),
  };
}
