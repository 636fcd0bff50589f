/**
 * The graph service's public entry point for other services: the delta engine that
 * merge replay and graph-file import reuse (BatchApplier and its limits), the text
 * form of a batch on the change trail, and the expiry of recorded Idempotency-Keys
 * that the worker's sweep runs. Other services import these from here, not from
 * graph's deltas/ or commands/ folders, so graph can rearrange its internals.
 */
export { BatchApplier } from './deltas/batchApplier';
export type { ApplierLimits } from './deltas/batchApplier';
export { parseRecordedDeltas, recordedText, toWireDelta } from './deltas/wireDelta';
export type { WireDelta } from './deltas/wireDelta';
export { expireIdempotencyKeys } from './commands/expireIdempotencyKeys';
export { quotaProblem, requireWithinQuota, saveUsage, usageOf } from './branchUsage';
export type { BranchUsage } from './branchUsage';
export { deltaError } from './deltas/deltaErrors';
export { PORT_CHANNELS } from './deltas/deltaTypes';
export type { AddNode, Delta } from './deltas/deltaTypes';
export { parseDeltaBatch } from './deltas/parseDeltas';
export { capFindings, computeFindings } from './findings';
export type { Finding } from './findings';
export { forkContent } from './graphCopy';
export { loadBranchGraph, loadLiveGraph } from './graphLoader';
export type { LoadedGraph } from './graphLoader';
export type { Channel, NodeKind, NodeRecord, NodeWithPorts, PortRecord } from './graphRecords';
export { graphRoutes } from './graphRoutes';
export { IdempotencyStore } from './idempotency';
export { chainProblem, renderPath } from './paths';
export { scopedReadRoutes } from './scopedReadRoutes';
// the scoped reads' statements, which `make bench` also times bare (without HTTP)
export { readBoundaryOf, readNeighborhoodOf, subtreeToDepth } from './store/scopedReadQueries';
export { changeSchema } from './store/changeQueries';
export { deleteNodesAndPorts, writePositions } from './store/deltaQueries';
export { graphSchema } from './store/graphSchema';
export { parseVerifications, presentPort } from './wirePresenter';
