/**
 * The two versions of one line a diff compares (getBranchDiff with from_version /
 * to_version, getMainDiff): each one asked for must be readable on the line, from its
 * oldest kept version (`history_floor`, 0 until retention moves it) to its head
 * (404 version_not_found naming both ends), and from_version may not be above
 * to_version (422).
 */
import { RequestValidationError, VersionNotFoundError } from '../../shared/errors/domainErrors';

export interface DiffVersions {
  from?: number;
  to?: number;
}

interface Line {
  version: number;
  history_floor?: number | null;
}

function readable(line: Line, version: number): number {
  const oldest = line.history_floor ?? 0;
  if (!Number.isInteger(version) || version < oldest || version > line.version) {
    throw new VersionNotFoundError(version, oldest, line.version);
  }
  return version;
}

/**
 * The checked range; an absent `to` is the head, an absent `from` is `defaultFrom(to)`
 * (a number: that version; raised to the oldest kept one when below it).
 */
export function versionRange(
  line: Line,
  asked: DiffVersions,
  defaultFrom: number | ((to: number) => number),
): { from: number; to: number } {
  const to = asked.to === undefined ? line.version : readable(line, asked.to);
  const fallback = typeof defaultFrom === 'number' ? defaultFrom : defaultFrom(to);
  const from =
    asked.from === undefined
      ? Math.min(to, Math.max(line.history_floor ?? 0, fallback))
      : readable(line, asked.from);
  if (from > to) {
    throw new RequestValidationError([
      {
        loc: ['query', 'from_version'],
        msg: `from_version (${from}) must not be above to_version (${to})`,
        type: 'value_error',
        input: from,
      },
    ]);
  }
  return { from, to };
}

/** The integer of an optional query parameter (the gateway checked its schema). */
export function queryVersion(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return Number(value);
}
