/**
 * A comment's anchor: a node, port or edge of the branch at a version, kept with what it
 * was called then (read through the branch's view at that version), so the comment stays
 * readable after the branch moves on or the entity is renamed or removed.
 */
import { InvalidInputError } from '../../shared/errors/domainErrors';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import type { BranchRecord } from '../branches';
import { branchView } from '../graph';
import { edgeNameAt, nodeNameAt, portNameAt } from './store/reviewQueries';

export type AnchorKind = 'node' | 'port' | 'edge';

export interface Anchor {
  kind: AnchorKind;
  id: string;
  version: number;
  name: string;
}

const QUERY = { node: nodeNameAt, port: portNameAt, edge: edgeNameAt };

/** The anchor of `kind` `id` at `version` (default the branch's current one), named. */
export async function resolveAnchor(
  tx: QueryRunner,
  branch: BranchRecord,
  input: { kind: AnchorKind; id: string; version?: number },
): Promise<Anchor> {
  const version = input.version ?? branch.version;
  const floor = (branch as { history_floor?: number | null }).history_floor ?? 0;
  if (version > branch.version || version < floor) {
    throw new InvalidInputError(
      'anchor_version_invalid',
      `version ${version} is not readable on the branch; readable versions are ${floor} to ${branch.version}`,
    );
  }
  const view = branchView(branch, branch.main_id, version);
  const row = await tx.one<{ name: string | null; found: boolean }>(QUERY[input.kind], {
    view,
    id: input.id,
  });
  if (!row?.found) {
    throw new InvalidInputError(
      'anchor_not_found',
      `the branch had no ${input.kind} ${input.id} at version ${version}`,
      { anchor: { kind: input.kind, id: input.id, version } },
    );
  }
  return { kind: input.kind, id: input.id, version, name: row.name ?? '' };
}
