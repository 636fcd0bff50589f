/** Cypher of the graph-file service. */
import { cypher } from '../../../shared/neo4j/namedQuery';

/** A live branch with its live project's name: the operator's export (graphctl export). */
export const findBranchWithProject = cypher(
  'findBranchWithProject',
  `MATCH (b:Branch {id: $branchId}) WHERE b.deleted_at IS NULL
   MATCH (p:Project {id: b.project_id}) WHERE p.deleted_at IS NULL
   RETURN b {.id, .status, .main_id, .version, .base_main_version} AS branch,
          p.name AS projectName`,
);

/**
 * A staged import in progress (importStaging.ts): the line its content is written on,
 * before a Branch of that id exists, and its lease (lease_until, ms): the worker's sweep
 * removes the records of a stage whose lease ran out (services/purge). With it, its
 * $lanes lanes (VStageLane 0..$lanes-1): each transaction writing a part of the content
 * holds one lane's lock, so parts are written side by side, and the sweep, which takes
 * every lane's lock, never removes the stage while a part is being written.
 */
export const openStage = cypher(
  'openStage',
  `CREATE (s:VStage {line: $line, kind: $kind, started_at: $now, lease_until: $until})
   WITH s
   UNWIND range(0, toInteger($lanes) - 1) AS lane
   CREATE (:VStageLane {line: $line, lane: lane})
   RETURN DISTINCT s.line AS line`,
);

/**
 * Takes lane $lane's lock (held until the transaction ends); no row when the lane is
 * gone (the sweep removed the stage). First in a transaction writing a part; then
 * stageNotTaken, read once the lock is held.
 */
export const holdStageLane = cypher(
  'holdStageLane',
  `MATCH (l:VStageLane {line: $line, lane: $lane}) USING INDEX l:VStageLane(line)
   SET l.lock_seq = coalesce(l.lock_seq, 0) + 1
   RETURN l.lane AS lane`,
);

/**
 * Whether the stage is still the import's (not taken by the sweep). Read under a lane's
 * lock: the sweep marks it taken and then takes every lane's lock, so a part that saw
 * it untaken commits before the sweep removes anything.
 */
export const stageNotTaken = cypher(
  'stageNotTaken',
  `MATCH (s:VStage {line: $line}) WHERE s.taken_at IS NULL
   RETURN s.line AS line`,
);

/**
 * Takes the stage's lock (held until the transaction ends, so the sweep cannot take
 * the stage meanwhile) and extends its lease to $until, unless the sweep has taken it
 * (taken_at) or removed it: then there is no row.
 */
export const holdStage = cypher(
  'holdStage',
  `MATCH (s:VStage {line: $line})
   SET s.lock_seq = coalesce(s.lock_seq, 0) + 1
   WITH s WHERE s.taken_at IS NULL
   SET s.lease_until = $until
   RETURN s.line AS line`,
);
