/**
 * Cypher of the one-time move of a database written before the versioned store
 * (records keyed by branch_id alone, one full copy of the graph per branch, containment
 * and port ownership as CONTAINS / HAS_PORT relationships) to versioned records. Every
 * statement is idempotent and batched (`IN TRANSACTIONS`), so a migration cut short by
 * a crash resumes where it stopped at the next start.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';
import { OPEN_CYPHER } from '../store/visibility';

/**
 * The one-time moves of a store, each named by a marker written when it has finished,
 * so that later starts skip it.
 */
export const MIGRATION_MARKS = {
  /** records keyed by branch alone moved to versioned records (migrateStore.ts) */
  versionedStore: 'versioned-store',
  /** the trail's touches backfilled for changes recorded before them (backfillTrail.ts) */
  trailTouches: 'trail-touches',
  /** node records given the lower-cased name the name search reads (backfillNameKeys.ts) */
  nameKeys: 'node-name-keys',
} as const;

/** Whether the move marked `$id` has finished. */
export const findMigrationMark = cypher(
  'findStoreMigrationMark',
  `OPTIONAL MATCH (m:StoreMigration {id: $id})
   RETURN m IS NOT NULL AS done`,
);

/** Marks the move `$id` finished. */
export const writeMigrationMark = cypher(
  'writeStoreMigrationMark',
  `MERGE (m:StoreMigration {id: $id})
   ON CREATE SET m.done_at = datetime()
   RETURN true AS done`,
);

/** Every branch learns its main's id (views are built from it): the last step that
 * tells branches written before the versioned store from the others. */
export const setMainIds = cypher(
  'migrateSetMainIds',
  `MATCH (b:Branch) WHERE b.main_id IS NULL
   CALL (b) {
     MATCH (m:Branch {project_id: b.project_id, is_main: true})
     SET b.main_id = m.id
   } IN TRANSACTIONS OF 1000 ROWS`,
);

/**
 * A working branch held a full copy of main: main's entities it does not have were
 * deleted on it, so they get tombstones before the copies become versioned records.
 * Only branches written before the versioned store are considered: those without
 * `main_id`, which every branch created since carries (setMainIds runs after this).
 */
const TOMBSTONES = (label: 'GNode' | 'Port' | 'Edge') =>
  cypher(
    `migrateTombstones${label}`,
    `MATCH (b:Branch {is_main: false})
     WHERE b.main_id IS NULL
     MATCH (m:Branch {project_id: b.project_id, is_main: true})
     MATCH (s:${label} {branch_id: m.id})
     WHERE s.vfrom IS NULL OR s.vto = ${OPEN_CYPHER}
     WITH b, s
     WHERE NOT EXISTS { MATCH (c:${label} {branch_id: b.id, id: s.id}) }
     CALL (b, s) {
       CREATE (:${label} {branch_id: b.id, id: s.id, vfrom: 0, vto: ${OPEN_CYPHER}, gone: true})
     } IN TRANSACTIONS OF 1000 ROWS`,
  );

export const migrateTombstones = [TOMBSTONES('GNode'), TOMBSTONES('Port'), TOMBSTONES('Edge')];

/** Unversioned records become valid from version 0 while current. */
const VERSION_RECORDS = (label: 'GNode' | 'Port' | 'Edge') =>
  cypher(
    `migrateVersion${label}`,
    `MATCH (s:${label}) WHERE s.vfrom IS NULL
     CALL (s) { SET s.vfrom = 0, s.vto = ${OPEN_CYPHER} } IN TRANSACTIONS OF 5000 ROWS`,
  );

export const versionRecords = [
  VERSION_RECORDS('GNode'),
  VERSION_RECORDS('Port'),
  VERSION_RECORDS('Edge'),
];

/** Containment and port ownership are property joins now. */
export const dropStructureRelationships = cypher(
  'migrateDropStructure',
  `MATCH ()-[r:CONTAINS|HAS_PORT]->()
   CALL (r) { DELETE r } IN TRANSACTIONS OF 5000 ROWS`,
);

/**
 * The history before the migration was not kept: every line is readable from its
 * current version on (older versions answer version_not_found).
 */
export const setHistoryFloors = cypher(
  'migrateHistoryFloors',
  `MATCH (b:Branch) WHERE b.history_floor IS NULL AND b.main_id IS NULL
   CALL (b) { SET b.history_floor = b.version } IN TRANSACTIONS OF 1000 ROWS`,
);

/**
 * Every node record with a name and no `name_key` gets its lower-cased name, 1000
 * records per transaction (tombstones have no name and get none). A start cut short
 * resumes with the records still without one.
 */
export const backfillNodeNameKeys = cypher(
  'migrateNodeNameKeys',
  `MATCH (n:GNode) WHERE n.name IS NOT NULL AND n.name_key IS NULL
   CALL (n) {
     SET n.name_key = toLower(n.name)
   } IN TRANSACTIONS OF 1000 ROWS`,
);
