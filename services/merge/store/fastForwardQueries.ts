/**
 * Cypher of a fast-forward merge: main has not moved since the branch forked, so main
 * becomes the branch by taking the branch's head state of every entity the branch
 * touched. A working branch's line holds exactly the entities it changed (copy-on-write
 * per entity, tombstones for deletions), so the ids of its records are the change
 * (store/changeSetQueries.ts LINE_IDS); nothing else of the graph is read.
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';
import type { NamedQuery } from '../../../shared/neo4j/namedQuery';
import type { StateLabel } from '../../graph';

const statement = statementsIn(join(__dirname, 'statements'));

/**
 * The branch's own record of each id valid at `$view.ver` (its head), tombstones
 * included, as its property map.
 */
const headStates = (label: StateLabel): NamedQuery => statement(`head${label}States`);

export const HEAD_STATES: Record<StateLabel, NamedQuery> = {
  GNode: headStates('GNode'),
  Port: headStates('Port'),
  Edge: headStates('Edge'),
};
