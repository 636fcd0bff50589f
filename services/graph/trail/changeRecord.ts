/**
 * One record type for every entry of a line's change trail (graph owns the trail): what a
 * writer hands to the trail (ChangeEntry) and what is stored and read back
 * (ChangeRecord). A batch or a revert records its deltas (at most limits.maxBatchBytes of
 * them); a merge records a bounded summary of the merged branch's trail, never its
 * deltas; an import records its counts. Every record names what it touched through its
 * Touch records (touches.ts), but an import's, derived from the records it wrote until
 * history retention needs them written down (importTouches.ts).
 */
import { InvalidInputError } from '../../../shared/errors/domainErrors';
import type { TouchRow } from './touches';

export type ChangeKind = 'batch' | 'revert' | 'merge' | 'import' | 'rebase';

/** For a rebase: the main version it moved to, the base it left, the resolutions chosen
 * (the ConflictResolution objects of the request, as JSON text). */
export interface RebaseNote {
  base: number;
  previousBase: number;
  resolutions: string;
}

/** What a writer records: its kind, who and when, and what the kind keeps. */
export interface ChangeEntry {
  kind: ChangeKind;
  actorId: string;
  now: string;
  /** The recorded deltas' JSON text and its byte size (batch, revert); null otherwise. */
  deltas: { text: string; bytes: number } | null;
  idempotency?: { key: string; scope: string; fingerprint: string } | null;
  positionsApplied?: number | null;
  /** For a revert: the version whose batch it undid. */
  revertedVersion?: number | null;
  /** For a merge: the merged branch and how it merged. */
  merged?: { branchId: string; mode: 'fast_forward' | 'replay' } | null;
  /** For an import: how many nodes and wires the file held. */
  imported?: { nodes: number; edges: number } | null;
  /** For a rebase: where it moved the branch and how its conflicts were resolved. */
  rebase?: RebaseNote | null;
}

/** A Change record as stored (store/trailQueries.ts recordChangeCypher) and read. */
export interface ChangeRecord {
  version: number;
  actor_id: string;
  created_at: string;
  /** JSON text of the deltas (batch, revert; merges before the trail was bounded). */
  deltas: string | null;
  idempotency_key: string | null;
  kind: ChangeKind | null;
  merged_branch_id: string | null;
  mode: 'fast_forward' | 'replay' | null;
  /** The version whose batch a revert undid (kind `revert`). */
  reverted_version?: number | null;
  /** For a merge: how many changes the merged branch's trail held, and their versions. */
  merged_batches?: number | null;
  merged_from_version?: number | null;
  merged_to_version?: number | null;
  /** For a rebase: the main version it moved to, the base it left, the resolutions (JSON). */
  rebase_base?: number | null;
  rebase_previous_base?: number | null;
  rebase_resolutions?: string | null;
}

/** The parameters of recordChangeCypher: the record's properties and its touches. */
export interface ChangeParams {
  change: Record<string, string | number | boolean | null>;
  touches: TouchRow[];
}

/** The stored properties of `entry` (besides branch and version, which the line gives). */
export function changeParams(entry: ChangeEntry, touches: TouchRow[]): ChangeParams {
  return {
    change: {
      kind: entry.kind,
      actor_id: entry.actorId,
      created_at: entry.now,
      deltas: entry.deltas?.text ?? null,
      deltas_bytes: entry.deltas?.bytes ?? 0,
      idempotency_key: entry.idempotency?.key ?? null,
      idempotency_scope: entry.idempotency?.scope ?? null,
      idempotency_fingerprint: entry.idempotency?.fingerprint ?? null,
      positions_applied: entry.positionsApplied ?? null,
      reverted_version: entry.revertedVersion ?? null,
      merged_branch_id: entry.merged?.branchId ?? null,
      mode: entry.merged?.mode ?? null,
      imported_nodes: entry.imported?.nodes ?? null,
      imported_edges: entry.imported?.edges ?? null,
      rebase_base: entry.rebase?.base ?? null,
      rebase_previous_base: entry.rebase?.previousBase ?? null,
      rebase_resolutions: entry.rebase?.resolutions ?? null,
      // its touches are indexed (the store migration backfills records without)
      touched: true,
      // an import's are derived from its records (importTouches.ts)
      touches_derived: entry.kind === 'import' ? true : null,
    },
    touches,
  };
}

/**
 * Refuses (422 change_too_large) a change that would record more than `maxBytes` of
 * deltas: a revert's inverse (a revert of a subtree's deletion adds the subtree back)
 * is bounded like a batch (batch_too_large, refused before it applies), so no entry of
 * the trail, and of its listing, is larger than one batch.
 */
export function requireRecordable(kind: ChangeKind, bytes: number, maxBytes: number): void {
  if (bytes <= maxBytes) return;
  throw new InvalidInputError(
    'change_too_large',
    `the ${kind} would record ${bytes} bytes on the change trail; at most ${maxBytes} per change`,
    { bytes, max_bytes: maxBytes },
  );
}
