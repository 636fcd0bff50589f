/** Maps stored branches to the API shapes Branch and BranchRef, field by field. */
import type { components } from '../../shared/api/openapi.generated';
import type { BranchRecord } from './branchRecord';

export type BranchOut = components['schemas']['Branch'];
export type BranchRefOut = components['schemas']['BranchRef'];

export function presentBranch(branch: BranchRecord): BranchOut {
  return {
    id: branch.id,
    project_id: branch.project_id,
    owner_id: branch.owner_id,
    name: branch.name,
    status: branch.status,
    is_main: branch.is_main,
    version: branch.version,
    base_main_version: branch.base_main_version,
    created_at: branch.created_at,
    last_active_at: branch.last_active_at,
    merged_at: branch.merged_at ?? null,
  };
}

export function presentBranchRef(branch: Pick<BranchRecord, 'id' | 'version'>): BranchRefOut {
  return { id: branch.id, version: branch.version };
}
