/**
 * Cypher of revertBranch (commands/revertBatch.ts). A working branch's line holds a
 * record of every entity a batch wrote, opened at the version the batch produced
 * (deletions as tombstones), so the entities batch K wrote are the line's records
 * with `vfrom = K` (or closed at K), found through the (branch_id, vfrom) and
 * (branch_id, vto) indexes; their states before and after K are read through the
 * views at K - 1 and K (store/visibility.ts).
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';
import type { StateLabel } from './visibility';

const statement = statementsIn(join(__dirname, 'statements'));

/** Ids of the entities batch $k wrote on line $line, with their label. */
export const entitiesWrittenAt = statement('revertEntitiesWrittenAt');

/** Of the entities `$ids`, those with a record on line $line from a version above $k:
 * the first such version of each. */
const laterWrites = (label: StateLabel) => statement(`revertLater${label}Writes`);

/** The states of the entities `$ids` in $view (`state` null where the entity does not
 * exist there), every stored property included. */
const statesAt = (label: StateLabel) => statement(`revert${label}StatesAt`);

export const LATER_WRITES = {
  GNode: laterWrites('GNode'),
  Port: laterWrites('Port'),
  Edge: laterWrites('Edge'),
};
export const STATES_AT = {
  GNode: statesAt('GNode'),
  Port: statesAt('Port'),
  Edge: statesAt('Edge'),
};

/** Every port of the nodes `$nodeIds` in $view. */
export const portsOfNodesAt = statement('revertPortsOfNodesAt');

/**
 * What the revert's writes would leave broken, read through its write view after
 * writing: a node or port still on a removed node, a wire still on a removed port, a
 * written node whose parent is gone or whose name a sibling now has, a written port
 * whose node is gone, a written wire on a port that is gone. Each row names the
 * entity in the way (kind `node`, `port` or `edge`).
 */
export const revertBlockers = statement('revertBlockers');

/** The latest version below $below that wrote each entity on line $line (null: none). */
export const latestWrites = statement('revertLatestWrites');

/**
 * Advances the branch version by one and records the revert on the change trail
 * ($change: kind `revert`, the reverted version, the inverse as deltas so that a merge
 * replays it like any batch; $touches) with the branch's usage counters after it.
 */
export const recordRevert = statement('recordRevert');
