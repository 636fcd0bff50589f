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
import { createLogger } from '../../shared/logging/logger';
import { currentHarness } from './harness';

/** How long the warm-up may take: about half a minute alone on a cold Neo4j, one to two minutes beside the other suites. */
const WARMUP_BOUND_MS = 300_000;

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(WARMUP_BOUND_MS);
    const { service, config } = currentHarness();
    const report = await warmPlans(
      {
        executor: service.executor,
        config,
        logger: createLogger({ level: config.logLevel }),
      },
      WARMED_OPERATIONS,
      { stagedImport: rehearseStagedImport },
    );
    console.log(`plans warmed before the first test in ${report.ms} ms`);
  },
};
