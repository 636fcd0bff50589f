/**
 * The graph service: a branch's nodes, ports and wires, the delta batches that change
 * them (validate, apply), the full and scoped reads, and their HTTP routes.
 *
 * - routes: graphRoutes (reads, validate, apply), scopedReadRoutes (subtree,
 *   neighborhood, boundary, top level, search), historyRoutes (a node's history);
 *   IdempotencyStore for apply's keys;
 * - the delta engine that merge replay and graph-file import reuse: BatchApplier,
 *   parseDeltaBatch, deltaError, the delta types, PORT_CHANNELS; the text of a batch
 *   on the change trail (recordedText, recordedBytes, parseRecordedDeltas, toWireDelta);
 * - writes other services make in their own transactions: writePositions,
 *   deleteNodesAndPorts, saveUsage, and the copy-on-write primitives upsertStates,
 *   removeStates, placeNodes; forkContent (the counters a fork starts with: a fork
 *   copies no content);
 * - the versioned store: View, mainView, branchView, writeViewOf, OPEN, and the
 *   visibility rule as the Cypher fragments that define it (stateOf, statesWhere,
 *   allStates, ...: what statements kept whole are held to, and the benches build from);
 * - reads: eachNodeParentsFirst and eachEdge (a view's nodes and wires a page at a
 *   time, FULL_READ_PAGE rows a page), computeFindings/capFindings, usageOf,
 *   quotaProblem, requireWithinQuota, the node records (NodeRecord, PortRecord,
 *   NodeWithPorts) and path rules (chainProblem, renderPath);
 * - the first content of a new line (an imported main): checkNewLineContent checks it
 *   whole in memory, or recordsFirst builds its node, port and wire records first and
 *   checks it while they are written; writeNewLineContent writes it in parts
 *   (contentParts);
 * - jobs: expireIdempotencyKeys and backfillKeptFindings (the worker's sweep), and
 *   keepFindingsOf (the kept findings of a bulk-loaded line);
 * - the change trail (trail/: its one record type and its writers' and readers'
 *   functions: appendChange, appendMerge, appendRebase, touchesOf, readTrailPage,
 *   trailBatchPage; recordImportTouches, which writes an import's derived touches down
 *   before the history sweep removes records of its line);
 * - schema: graphSchema and changeSchema (constraints and indexes, run at start-up).
 *
 * Other services import these from here, never from graph's deltas/, commands/ or
 * store/ folders, so graph can rearrange its internals.
 */
export { forkContent, quotaProblem, requireWithinQuota, saveUsage, usageOf } from './branchUsage';
export type { BranchUsage } from './branchUsage';
export { expireIdempotencyKeys } from './commands/expireIdempotencyKeys';
export { backfillKeptFindings, keepFindingsOf } from './commands/backfillFindings';
export type { BackfillResult } from './commands/backfillFindings';
export { BatchApplier } from './deltas/batchApplier';
export type { ApplierLimits } from './deltas/batchApplier';
export { deltaError } from './deltas/deltaErrors';
export type { AddNode, Delta } from './deltas/deltaTypes';
export { parseDeltaBatch } from './deltas/parseDeltas';
export { addedNodeRows, addedState } from './deltas/runRows';
export { parseRecordedDeltas, recordedBytes, recordedText, toWireDelta } from './deltas/wireDelta';
export type { WireDelta } from './deltas/wireDelta';
export { capFindings, computeFindings } from './findings';
export { findingRow, findingsAreKept, recomputeFindings, refreshFindings } from './findingRecords';
export { orphanNodeFinding, unsatisfiedInputFinding } from './findingRules';
export { findingChangesOf, findingsOf } from './findingLists';
export type { FindingList } from './findingLists';
export type { Written } from './writtenEntities';
export type { Finding } from './findings';
export type { Channel, NodeKind, NodeRecord, NodeWithPorts, PortRecord } from './graphRecords';
export { graphRoutes } from './graphRoutes';
export { eachEdge, eachNodeParentsFirst, FULL_READ_PAGE } from './pagedReads';
export { historyRoutes } from './historyRoutes';
export { IdempotencyStore } from './idempotency';
export { WARMED_OPERATIONS, warmPlans, warmPlansAtStart } from './planWarmup';
export type { StartedWarmup, WarmupOptions, WarmupReport } from './planWarmup';
export { deleteNodesAndPorts, writePositions } from './nodeWrites';
export type { NodePosition } from './nodeWrites';
export { chainProblem, renderPath } from './paths';
export { revertRoutes } from './revertRoutes';
export { scopedReadRoutes } from './scopedReadRoutes';
export { trailSchema as changeSchema } from './store/trailQueries';
export { graphSchema } from './store/graphSchema';
export { migrateStore } from './migration/migrateStore';
export {
  appendChange,
  appendMerge,
  appendRebase,
  readTrailPage,
  trailBatchPage,
} from './trail/trail';
export { recordImportTouches } from './trail/importTouches';
export type { ChangeEntry, ChangeRecord } from './trail/changeRecord';
export { requireRecordable } from './trail/changeRecord';
export { requireApplyAccess } from './commands/applyDeltas';
export { recordedChange } from './recordedChange';
export type { IdempotencyClaim } from './recordedChange';
export { idempotentWrite } from './idempotentWrite';
export { grown } from './branchUsage';
export { touchesOf } from './trail/touches';
export {
  checkNewLineContent,
  checkedFirst,
  contentParts,
  recordCount,
  recordsFirst,
  writeNewLineContent,
} from './newLineContent';
export type { NewLineContent, NewLineContentPart, RecordsFirst } from './newLineContent';
export { baseAt, branchView, isMainView, mainView, OPEN, writeViewOf } from './view';
export { graphVersion, graphViewOf, resolveView } from './viewResolver';
export type { View } from './view';
export {
  allStates,
  optionalStateOf,
  OPEN_CYPHER,
  seek,
  stateOf,
  statesWhere,
  VIEW_LINES,
  visible,
  visibleRecord,
} from './visibilityRule';
export type { RecordLabel, StateLabel } from './visibilityRule';
export { placeNodes, removeStates, upsertStates } from './recordWrites';
export type { StateRow } from './recordWrites';
