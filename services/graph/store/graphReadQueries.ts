/**
 * Cypher of full reads: every node with its ports and every wire visible in one view
 * (`$view`, see view.ts), a page at a time. A fixed view cannot tear between pages: a
 * write that commits meanwhile writes records of a later version, which the view never
 * sees.
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';
import { PARENT_KINDS } from '../deltas/invariants';

const statement = statementsIn(join(__dirname, 'statements'));

/**
 * A page of the nodes visible in the view with their ports (by channel, then ord): the
 * first `$limit` past id `$after` in id order (visibility.ts statesPage), one row per
 * node. A streamed full read (graphStream.ts) reads a page per transaction. `atHead` adds, for a read pinned to an earlier version,
 * the node's position at the head of the same line (`$head`; positions are layout, not
 * history): `head` is null when the node is gone there.
 */
export const readNodesWithPorts = statement('readNodesWithPorts');
export const readNodesWithPortsAtHead = statement('readNodesWithPortsAtHead');

/**
 * Whether node record `n` is of a kind that may hold children (invariants.ts
 * PARENT_KINDS), as Cypher: the test the parents-first reads (pagedReads.ts) page by.
 */
export function parentKindCypher(n: string): string {
  const kinds = [...PARENT_KINDS].map((kind) => `'${kind}'`).join(', ');
  return `${n}.kind IN [${kinds}]`;
}

/**
 * A page of the ids and parents of the nodes of a parent kind (parentKindCypher) visible
 * in the view: statesPage filtered by kind, rows `{id, parent_id}` in id order.
 */
export const readParentKindNodeIds = statement('readParentKindNodeIds');

/**
 * A page of the nodes of every other kind (never a parent) with their ports, as
 * readNodesWithPorts: statesPage filtered by `NOT parentKindCypher`.
 */
export const readLeafKindNodesWithPorts = statement('readLeafKindNodesWithPorts');

/**
 * The nodes `$ids` visible in the view with their ports, as readNodesWithPorts, in the
 * order of `$ids` (an id the view does not see has no row): a page of nodes whose order
 * was settled before they were read.
 */
export const readNodesWithPortsByIds = statement('readNodesWithPortsByIds');

/** A page of the wires visible in the view with their derived endpoints, the nodes of
 * the ports their handles name in the same view (null when a handle is null or
 * dangles): the first `$limit` wires past id `$after` (statesPage). */
export const readEdgesPage = statement('readEdgesPage');
