/**
 * An import's touches, derived instead of written. An import adds every node of its file
 * at main's version 0, with its ports and every wire on them, so each of its touches
 * (touches.ts: one per node, its wires folded in) says nothing its version-0 records do
 * not: the node's fields are the properties its record stores (the store leaves a
 * default out), its ports and wires are the version-0 records that name it. A large
 * import then writes a hundred thousand records fewer for a hundred thousand nodes, and
 * a node's history (nodeHistory.ts) reads the import's touch of it from those records.
 *
 * The Change record of such an import is marked `touches_derived`. Version-0 records
 * last until history retention removes the ones later changes replaced, so before the
 * history sweep first removes a record of such a line it writes the touches down as
 * Touch records (recordImportTouches) and drops the mark. A touch written down always
 * wins over the derived one, so a sweep that stopped halfway leaves nothing twice.
 */
import type { Executor } from '../../../shared/neo4j/executor';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { CHANNELS, VALUE_FIELD_NAMES } from '../../../shared/model/nodeModel';
import type { Channel } from '../../../shared/model/nodeModel';
import {
  closeImportTouches,
  importedNodeIdsPage,
  importTouchesOfNodes,
  recordTouches,
} from '../store/trailQueries';
import type { TouchRow } from './touches';

/** Nodes whose touches the sweep writes down per transaction. */
const RECORD_PAGE = 2000;

/** What importTouchesOfNodes answers of one node's version-0 records. */
interface ImportedNode {
  id: string;
  /** The property names its record stores (values set, defaults left out). */
  stored: string[];
  /** Its ports, with the channel and the position in it each has. */
  ports: { id: string; channel: Channel; ord: number }[];
  /** The wires the import added on those ports. */
  wires: string[];
}

/**
 * The touch the import made of one node, as touchesOf would have recorded it from the
 * node's add_node and the add_edges on its ports: added; kind, parent_id and the fields
 * its data set (a field set to its default is not told from one left out); its ports;
 * the wires on them.
 */
function importTouch(node: ImportedNode): TouchRow {
  const stored = new Set(node.stored);
  // in the order the node's data lists them: by channel, then position
  const ports = [...node.ports].sort(
    (a, b) => CHANNELS.indexOf(a.channel) - CHANNELS.indexOf(b.channel) || a.ord - b.ord,
  );
  const channels = new Set(ports.map((p) => p.channel));
  return {
    key: node.id,
    entity: 'node',
    id: node.id,
    action: 'added',
    fields: [
      'kind',
      'parent_id',
      ...VALUE_FIELD_NAMES.filter((f) => stored.has(f)),
      ...CHANNELS.filter((c) => channels.has(c)),
    ],
    ports: ports.map((p) => p.id),
    wires: node.wires,
  };
}

/**
 * The import's touches of the nodes `ids` on main's line `line`, derived from their
 * version-0 records: none when the line's version 0 is not an import whose touches are
 * derived, and none for a node whose touch is written down already.
 */
export async function importTouchesOf(
  tx: QueryRunner,
  line: string,
  ids: string[],
): Promise<TouchRow[]> {
  if (ids.length === 0) return [];
  const rows = await tx.run<ImportedNode & Record<string, unknown>>(importTouchesOfNodes, {
    line,
    ids,
  });
  return rows.map(importTouch);
}

/**
 * Writes down the derived touches of main's line `line` as Touch records, a page of
 * nodes per transaction, then drops the line's mark: nothing when its touches are not
 * derived. Run before the history sweep removes any of the line's records. Answers how
 * many touches it wrote.
 */
export async function recordImportTouches(executor: Executor, line: string): Promise<number> {
  let after = '';
  let recorded = 0;
  for (;;) {
    const page = await executor.writeTx(async (tx) => {
      const row = await tx.one<{ marked: boolean; ids: string[] }>(importedNodeIdsPage, {
        line,
        after,
        limit: RECORD_PAGE,
      });
      if (!row?.marked) return null;
      const touches = await importTouchesOf(tx, line, row.ids);
      if (touches.length > 0) await tx.run(recordTouches, { line, version: 0, touches });
      return { ids: row.ids, touches: touches.length };
    });
    if (!page) return recorded; // not derived, or written down already
    recorded += page.touches;
    if (page.ids.length < RECORD_PAGE) break;
    after = page.ids[page.ids.length - 1];
  }
  await executor.write(closeImportTouches, { line });
  return recorded;
}
