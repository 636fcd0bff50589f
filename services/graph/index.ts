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
