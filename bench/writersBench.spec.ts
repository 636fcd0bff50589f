import { expect } from 'chai';
import { ServiceMetrics } from '../services/platform';
import { statementTotals } from './rebaseBench';
import { FEED_EVENT_STATEMENT, figuresOf, WritersRun } from './writersBench';

/**
 * The writers bench reads the feed event statement's share of a batch from the Executor's
 * per-statement histogram: a wrong label match would count every statement as the
 * event's (or none), and the report would blame the wrong statement.
 */
describe('writers bench figures', () => {
  it("statementTotals of one named query counts only that query's statements", async () => {
    const metrics = new ServiceMetrics({ defaultMetrics: false });
    metrics.observeQuery(FEED_EVENT_STATEMENT, 40, true);
    metrics.observeQuery(FEED_EVENT_STATEMENT, 20, false);
    metrics.observeQuery('lockAndPrefetchAddRun', 500, true);
    const event = await statementTotals(metrics, FEED_EVENT_STATEMENT);
    expect(event.count).to.equal(2);
    expect(event.seconds).to.be.closeTo(0.06, 1e-9);
    const all = await statementTotals(metrics);
    expect(all.count).to.equal(3);
    expect(all.seconds).to.be.closeTo(0.56, 1e-9);
  });

  it('figuresOf gives the throughput, the percentiles and the feed event statement per batch', () => {
    const run: WritersRun = {
      size: 1000,
      layout: 'branches',
      writers: 10,
      latencies: [100, 300, 200, 400, 1000],
      deltas: 500,
      seconds: 2,
      feedEvent: { count: 5, seconds: 0.2 },
      nodeCpuSeconds: 1,
    };
    const f = figuresOf(run);
    expect(f.batches).to.equal(5);
    expect(f.deltasPerSecond).to.equal(250);
    expect(f.p50).to.equal(300);
    expect(f.p95).to.equal(1000);
    expect(f.mean).to.equal(400);
    expect(f.feedEventMs).to.be.closeTo(40, 1e-9);
    expect(f.feedEventShare).to.be.closeTo(0.1, 1e-9);
    expect(f.nodeCpu).to.equal(0.5);
  });
});
