/**
 * Kept findings (findingRecords.ts) against the whole computation over a view
 * (computeFindings), the oracle they must agree with exactly, order included.
 */
import { expect } from 'chai';
import {
  branchView,
  capFindings,
  computeFindings,
  findingsAreKept,
  findingsOf,
  mainView,
  View,
} from '../../services/graph';
import { currentHarness } from './harness';

const MAX = 1000;

/** A branch as stored (the API has no read of one branch by id). */
async function branchRecord(id: string) {
  const rows = await currentHarness().service.executor.read<{
    b: { id: string; version: number; base_main_version: number };
  }>({ name: 'testBranchRecord', text: 'MATCH (b:Branch {id: $id}) RETURN b {.*} AS b' }, { id });
  expect(rows, `branch ${id}`).to.have.length(1);
  return rows[0].b;
}

/** The view a branch (or main) is read through at its head. */
export async function headView(id: string, mainId: string): Promise<View> {
  const b = await branchRecord(id);
  return id === mainId ? mainView(mainId, b.version) : branchView(b, mainId, b.version);
}

/** Kept findings and the whole computation agree on `view`; the kept path was taken. */
export async function expectAgree(view: View, label: string) {
  const { executor } = currentHarness().service;
  const [isKept, kept, whole] = await executor.readTx(async (tx) => [
    await findingsAreKept(tx, view),
    await findingsOf(tx, view, MAX),
    await computeFindings(tx, view),
  ]);
  expect(isKept, `${label}: the view keeps its findings`).to.equal(true);
  const expected = {
    ...capFindings(whole, MAX),
    valid: !whole.some((f) => f.severity === 'error'),
  };
  expect(kept, label).to.deep.equal(expected);
  const keptRecords = await executor.read<{ n: number }>(
    { name: 'countKept', text: 'MATCH (f:GFinding {branch_id: $line}) RETURN count(f) AS n' },
    { line: view.line },
  );
  return { whole, records: keptRecords[0]?.n ?? 0 };
}
