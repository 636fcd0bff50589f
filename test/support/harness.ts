/**
 * Mocha root hooks for integration tests: start the real service in-process on an
 * ephemeral port against the Neo4j and Redis that scripts/with-stack.sh started
 * for this test run (NEO4J_URI, REDIS_URL), once for the whole run.
 */
import { randomUUID } from 'node:crypto';
import { Config, loadConfigWith } from '../../shared/config/config';
import { createLogger } from '../../shared/logging/logger';
import { RunningService, startService } from '../../services/gateway/server';
import { createApiKey } from '../../services/identity/commands/createApiKey';
import { addMember } from '../../services/identity/commands/addMember';
import type { Principal } from '../../shared/http/principal';
import { ApiClient } from './client';
import { Contract } from './contract';
import { startSplitTopology } from './splitTopology';

export interface Harness {
  service: RunningService;
  contract: Contract;
  config: Config;
  /** Unauthenticated client. */
  anon: ApiClient;
}

let harness: Harness | undefined;

// Test settings: small caps so limits can be reached, generous rate limits so
// they are not (the rate-limit tests run their own limiter).
export const TEST_ENV = {
  PORT: '0',
  PROJECT_LIMIT: '5',
  BRANCH_LIMIT: '3',
  RATE_LIMIT_READ_PER_MIN: '100000',
  RATE_LIMIT_WRITE_PER_MIN: '100000',
  RATE_LIMIT_ANON_PER_MIN: '100000',
  MAX_IN_FLIGHT_PER_KEY: '1000',
  LOG_LEVEL: 'error',
  // small enough that the abuse suite reaches them quickly (test/abuse/)
  MAX_FINDINGS: '40',
  MAX_BATCH_BYTES: '131072',
  // the batch path's largest statements take seconds each to plan on a fresh Neo4j (more
  // on a loaded machine, with the suites side by side), once per statement with their
  // parameters' shapes kept (shared/neo4j/paramShapes.ts), and again in a transaction that
  // has written before them: within one transaction, that may pass the usual 30 s, which
  // only the tests of the limit are about (they set their own)
  NEO4J_TX_TIMEOUT_MS: '300000',
  // the suites plan the statements as their tests first run them; a warm-up at each start
  // would only plan the same ones sooner, beside the first tests (test/planWarmup.test.ts
  // runs it)
  NEO4J_WARM_PLANS: 'false',
};

/**
 * Topology the suite runs against: the service in process (default), or the
 * separate-process mode (set by test/support/splitMode.ts).
 */
export const harnessOptions: { topology: 'in-process' | 'split' } = { topology: 'in-process' };

export function currentHarness(): Harness {
  if (!harness) throw new Error('the integration harness is not started');
  return harness;
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    const config = loadConfigWith(TEST_ENV);
    const contract = new Contract();
    await contract.init();
    const logger = createLogger({ level: config.logLevel });
    const service =
      harnessOptions.topology === 'split'
        ? await startSplitTopology(TEST_ENV, logger)
        : await startService(config, logger);
    harness = { service, contract, config, anon: new ApiClient(service.url, contract) };
  },
  async afterAll() {
    await harness?.service.close();
    harness = undefined;
  },
};

export interface TestUser {
  name: string;
  userId: string;
  keyId: string;
  token: string;
  api: ApiClient;
}

export const ALL_SCOPES = ['graph:write', 'project:delete', 'decisions:read'];

/** A fresh user with a fresh key (each test makes its own data). */
export async function newUser(
  options: { scopes?: string[]; projects?: string[] | null; name?: string } = {},
): Promise<TestUser> {
  const h = currentHarness();
  const name = options.name ?? `user-${randomUUID()}`;
  const key = await createApiKey(h.service.executor, {
    user: name,
    scopes: options.scopes ?? ALL_SCOPES,
    projects: options.projects ?? null,
  });
  return {
    name,
    userId: key.user_id,
    keyId: key.key_id,
    token: key.token,
    api: h.anon.withToken(key.token),
  };
}

/** Another key of the same user. */
export async function newKeyFor(
  user: TestUser,
  options: { scopes?: string[]; projects?: string[] | null },
) {
  return newUser({ ...options, name: user.name });
}

/** The principal of `user`'s key (every scope, no allowlist), for calling a command directly. */
export function principalOf(user: TestUser): Principal {
  return {
    userId: user.userId,
    keyId: user.keyId,
    scopes: new Set(ALL_SCOPES),
    projectAllowlist: null,
  };
}

export async function grant(projectId: string, user: TestUser, role: 'editor' | 'viewer') {
  await addMember(currentHarness().service.executor, { projectId, user: user.name, role });
}

export function uniqueName(prefix = 'project'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}
