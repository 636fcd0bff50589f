/**
 * A root hook for runs whose first tests would otherwise plan the batch path's statements
 * on a cold Neo4j (the Redis Cluster run, test/cluster/): it runs the plan warm-up a
 * service process runs as it starts (warmPlans, which the harness turns off so that the
 * integration suites plan as they go), once, before the first test, with a bound of its
 * own. On two cores shared with the restore drill and the abuse suite, that planning took
 * longer than a test's bound when the first Idempotency-Key test paid for it; here it is
 * paid once, where a slow start cannot fail a test about something else.
 */
import { WARMED_OPERATIONS, warmPlans } from '../../services/graph';
import { rehearseStagedImport } from '../../services/graphfile';
import { currentHarness } from './harness';

/**
 * How long the warm-up may take: about half a minute alone on a cold Neo4j, one to two
 * minutes beside the other suites.
 */
const WARMUP_BOUND_MS = 300_000;

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(WARMUP_BOUND_MS);
    const { service, config } = currentHarness();
    const report = await warmPlans(
      { executor: service.executor, config, logger: service.logger },
      WARMED_OPERATIONS,
      { stagedImport: rehearseStagedImport },
    );
    // the harness logs errors only: say which warm-ups did not plan (their tests plan then)
    const unplanned = Object.entries(report.operations)
      .filter(([, { outcome }]) => outcome !== 'planned')
      .map(([operationId, { outcome }]) => `${operationId} ${outcome}`);
    console.log(
      `plans warmed before the first test in ${report.ms} ms` +
        (unplanned.length > 0 ? `; not planned: ${unplanned.join(', ')}` : ''),
    );
  },
};
