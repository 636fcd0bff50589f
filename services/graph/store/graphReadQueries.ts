/**
 * Cypher of full reads: every node, port and wire visible in one view (`$view`, see
 * view.ts), in three statements. A fixed view cannot tear between them: a write that
 * commits meanwhile writes records of a later version, which the view never sees.
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';

const statement = statementsIn(join(__dirname, 'statements'));

export const readBranchNodes = statement('readBranchNodes');

/**
 * A page of the nodes visible in the view with their ports (by channel, then ord): the
 * first `$limit` past id `$after` in id order (visibility.ts statesPage), one row per
 * node. A streamed full read (graphStream.ts) reads a page per transaction. `atHead` adds, for a read pinned to an earlier version,
 * the node's position at the head of the same line (`$head`; positions are layout, not
 * history): `head` is null when the node is gone there.
 */
export const readNodesWithPorts = statement('readNodesWithPorts');
export const readNodesWithPortsAtHead = statement('readNodesWithPortsAtHead');

export const readBranchPorts = statement('readBranchPorts');

/** Wires with their derived endpoints, the nodes of the ports their handles name in
 * the same view: null when a handle is null or dangles. */
export const readBranchEdges = statement('readBranchEdges');

/** readBranchEdges a page at a time: the first `$limit` wires past id `$after` (statesPage). */
export const readEdgesPage = statement('readEdgesPage');
