/**
 * Cypher of change sets and sparse snapshots (changeSets.ts): which entities a line
 * changed, read from the line's own records by the (branch_id, id), (branch_id, vfrom)
 * and (branch_id, vto) indexes, and the state of given ids in a view (services/graph's
 * visibility rule), so a merge, a diff or a preview reads what changed and not the graph.
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';
import type { NamedQuery } from '../../../shared/neo4j/namedQuery';
import type { StateLabel } from '../../graph';

const statement = statementsIn(join(__dirname, 'statements'));

const LABELS: readonly StateLabel[] = ['GNode', 'Port', 'Edge'];

function perLabel(make: (label: StateLabel) => NamedQuery): Record<StateLabel, NamedQuery> {
  return Object.fromEntries(LABELS.map((label) => [label, make(label)])) as Record<
    StateLabel,
    NamedQuery
  >;
}

/**
 * One page of the ids with records on line `$line`, after `$after` in id order: a working
 * branch's line holds exactly the entities it changed (copy-on-write, tombstones for
 * deletions).
 */
export const LINE_IDS = perLabel((label) => statement(`lineIds${label}`));

/**
 * The ids whose state on line `$line` differs between versions `$from` and `$to`
 * (from < to): a record opened or closed in (from, to]. Every change of an entity on a
 * line opens or closes one of its records there.
 */
export const LINE_CHANGED_IDS = perLabel((label) => statement(`lineChangedIds${label}`));

/** The states of the ids `$ids` visible in `$view` (absent ones give no row). */
export const STATES_BY_ID = perLabel((label) => statement(`statesById${label}`));

/** The ports of the nodes `$ids` visible in `$view`. */
export const PORTS_OF_NODES = statement('portsOfNodes');

/** The wires into the ports `$ids` visible in `$view` (by target handle). */
export const WIRES_INTO_PORTS = statement('wiresIntoPorts');
