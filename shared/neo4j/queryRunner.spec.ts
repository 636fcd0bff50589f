import { expect } from 'chai';
import { int } from 'neo4j-driver';
import type { ManagedTransaction } from 'neo4j-driver';
import { cypher } from './namedQuery';
import { queryRunnerOf, serverMsOf } from './queryRunner';

/** A summary as the driver gives it: Neo4j's times as driver Integers. */
const summaryOf = (available: number, consumed: number) => ({
  resultAvailableAfter: int(available),
  resultConsumedAfter: int(consumed),
  database: { name: 'neo4j' },
});

/**
 * A driver result of `rows`, answered 20 ms after the run: awaited whole (run) or
 * iterated record by record with its summary after (each), as the driver's Result is.
 */
function fakeResult(rows: Record<string, unknown>[], summary: ReturnType<typeof summaryOf>) {
  const records = rows.map((row) => ({ toObject: () => row }));
  const whole = new Promise((resolve) => setTimeout(() => resolve({ records, summary }), 20));
  return {
    then: whole.then.bind(whole),
    summary: async () => summary,
    async *[Symbol.asyncIterator]() {
      await whole;
      yield* records;
    },
  };
}

type Observed = { name: string; ok: boolean; serverMs?: number; waitedMs: number };

function observedRunner(run: (text: string) => unknown) {
  const observed: Observed[] = [];
  const tx = { run } as unknown as Pick<ManagedTransaction, 'run'>;
  const runner = queryRunnerOf(tx, (name, started, ok, serverMs) =>
    observed.push({ name, ok, serverMs, waitedMs: performance.now() - started }),
  );
  return { runner, observed };
}

const QUERY = cypher('listThings', 'MATCH (t:Thing) RETURN t.id AS id');

describe('queryRunnerOf (what the slow-query log learns of each query)', () => {
  it("adds Neo4j's two times: until the first record, and until the last was consumed", () => {
    expect(serverMsOf(summaryOf(120, 35))).to.equal(155);
    expect(serverMsOf({ resultAvailableAfter: 4, resultConsumedAfter: 1 } as never)).to.equal(5);
  });

  it("reports a query's own time in Neo4j beside the time its caller waited", async () => {
    const { runner, observed } = observedRunner(() =>
      fakeResult([{ id: 'a' }, { id: 'b' }], summaryOf(3, 1)),
    );
    const rows = await runner.run<{ id: string }>(QUERY);
    expect(rows.map((r) => r.id)).to.deep.equal(['a', 'b']);
    expect(observed).to.have.length(1);
    expect(observed[0]).to.include({ name: 'listThings', ok: true, serverMs: 4 });
    // the caller waited the fake's 20 ms while Neo4j reported 4: the log shows both
    expect(observed[0].waitedMs).to.be.greaterThan(15);
  });

  it('reports it for a query read row by row too, once every row is handled', async () => {
    const { runner, observed } = observedRunner(() => fakeResult([{ id: 'a' }], summaryOf(7, 2)));
    const seen: unknown[] = [];
    const count = await runner.each(QUERY, {}, (row) => {
      seen.push(row);
    });
    expect(count).to.equal(1);
    expect(seen).to.deep.equal([{ id: 'a' }]);
    expect(observed[0]).to.include({ name: 'listThings', ok: true, serverMs: 9 });
  });

  it('reports a failed query without a time in Neo4j, and names it on the error', async () => {
    const { runner, observed } = observedRunner(() => Promise.reject(new Error('refused')));
    const error = await runner.run(QUERY).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(Error).and.to.have.property('query', 'listThings');
    expect(observed[0]).to.include({ name: 'listThings', ok: false });
    expect(observed[0].serverMs).to.equal(undefined);
  });
});
