/**
 * Cypher of a rebase's publication (rebaseBranch, through trail/trail.ts appendRebase):
 * the branch's version advances, its base moves to main's version, the base it leaves
 * is kept with the version it lasted until (view.ts baseAt: a read pinned before the
 * rebase still sees main at that base), and the change is recorded on the trail.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';
import { recordChangeCypher } from './trailQueries';

/** Publishes a rebase of $branchId onto main's version $base (expected at $expected). */
export const recordRebase = cypher(
  'recordRebase',
  `MATCH (b:Branch {id: $branchId})
   WHERE b.version = $expected
   SET b.prior_bases = coalesce(b.prior_bases, []) + [b.base_main_version],
       b.prior_base_until = coalesce(b.prior_base_until, []) + [b.version + 1],
       b.version = b.version + 1, b.base_main_version = toInteger($base),
       b.rebased_version = b.version + 1, b.last_active_at = $now,
       b.node_count = toInteger($nodes), b.edge_count = toInteger($edges),
       b.stored_bytes = toInteger($bytes)
   ${recordChangeCypher('b')}
   RETURN b {.*} AS branch`,
);
