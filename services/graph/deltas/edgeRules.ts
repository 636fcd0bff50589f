/**
 * Which node kinds a wire may join: a wire with a state or io node joins
 * exactly one behavior node and exactly one state-or-io node; state-to-state,
 * io-to-io and state-to-io are forbidden. Checked when a wire is added
 * (addRunChecker.ts) and when a port appears under a wire that was dangling
 * (wiresOnNewPorts.ts); one of the invariants listed in invariants.ts.
 */
import type { NodeKind } from '../graphRecords';

const special = (k: NodeKind) => k === 'state' || k === 'io';

export function edgeKindsAllowed(src: NodeKind, dst: NodeKind): boolean {
  if (!special(src) && !special(dst)) return true;
  return (special(src) && dst === 'behavior') || (src === 'behavior' && special(dst));
}
