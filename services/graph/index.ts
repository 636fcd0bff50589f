/**
 * The graph service: a branch's nodes, ports and wires, the delta batches that change
 * them (validate, apply), the full and scoped reads, and their HTTP routes.
 *
 * - routes: graphRoutes (reads, validate, apply), scopedReadRoutes (subtree,
 *   neighborhood, boundary, top level, search); IdempotencyStore for apply's keys;
 * - the delta engine that merge replay and graph-file import reuse: BatchApplier,
 *   parseDeltaBatch, deltaError, the delta types, PORT_CHANNELS; the text of a batch
 *   on the change trail (recordedText, parseRecordedDeltas, toWireDelta);
 * - writes other services make in their own transactions: writePositions,
 *   deleteNodesAndPorts, relinkParents, saveUsage; forkContent (the copy a fork starts from);
 * - reads: loadBranchGraph, loadLiveGraph, computeFindings/capFindings, usageOf,
 *   quotaProblem, requireWithinQuota, and the node records with their presenters
 *   (presentPort, parseVerifications) and path rules (chainProblem, renderPath);
 * - jobs: expireIdempotencyKeys (the worker's sweep);
 * - schema: graphSchema and changeSchema (constraints and indexes, run at start-up).
 *
 * Other services import these from here, never from graph's deltas/, commands/ or
 * store/ folders, so graph can rearrange its internals.
 */
export { quotaProblem, requireWithinQuota, saveUsage, usageOf } from './branchUsage';
export type { BranchUsage } from './branchUsage';
export { expireIdempotencyKeys } from './commands/expireIdempotencyKeys';
export { BatchApplier } from './deltas/batchApplier';
export type { ApplierLimits } from './deltas/batchApplier';
export { deltaError } from './deltas/deltaErrors';
export type { AddNode, Delta } from './deltas/deltaTypes';
export { parseDeltaBatch } from './deltas/parseDeltas';
export { parseRecordedDeltas, recordedText, toWireDelta } from './deltas/wireDelta';
export type { WireDelta } from './deltas/wireDelta';
export { capFindings, computeFindings } from './findings';
export type { Finding } from './findings';
export { forkContent } from './graphCopy';
export { loadBranchGraph, loadLiveGraph } from './graphLoader';
export type { LoadedGraph } from './graphLoader';
export type { Channel, NodeKind, NodeRecord, NodeWithPorts, PortRecord } from './graphRecords';
export { graphRoutes } from './graphRoutes';
export { IdempotencyStore } from './idempotency';
export { deleteNodesAndPorts, relinkParents, writePositions } from './nodeWrites';
export type { NodePosition } from './nodeWrites';
export { chainProblem, renderPath } from './paths';
export { scopedReadRoutes } from './scopedReadRoutes';
export { changeSchema } from './store/changeQueries';
export { graphSchema } from './store/graphSchema';
