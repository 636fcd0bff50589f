/**
 * What the benchmarks start from: a service configuration whose rate limits and caps
 * never throttle a benchmark's load (benchEnv / benchConfig), and a client with an
 * API key of a user of its own (benchUser), or of a member of a project (benchMember),
 * optionally with a working branch holding a first batch (branchWith).
 */
import { Config, loadConfigWith } from '../shared/config/config';
import type { Executor } from '../shared/neo4j/executor';
import { addMember, createApiKey } from '../services/identity';
import { BenchClient, BenchTransport } from './benchClient';
import { uniqueLabel } from './labels';

/** Environment of a benchmark's service (or split topology); `overrides` win. */
export function benchEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: '0',
    LOG_LEVEL: 'warn',
    BRANCH_LIMIT: '1000',
    PROJECT_LIMIT: '1000',
    RATE_LIMIT_READ_PER_MIN: '100000000',
    RATE_LIMIT_WRITE_PER_MIN: '1000000',
    // a statement's first plan (the unrolled walks of the nesting limit) may take long
    // on a loaded machine; the benches time steady state, after warm-up
    NEO4J_TX_TIMEOUT_MS: '300000',
    // the fixtures write main's history directly: keep every version readable
    HISTORY_MIN_MAIN_VERSIONS: '1000000',
    // each bench warms what it measures; the start-up plan warm-up would plan the largest
    // reads on Neo4j in the background for about half a minute, beside the first rounds
    NEO4J_WARM_PLANS: 'false',
    ...overrides,
  };
}

export function benchConfig(overrides: Record<string, string> = {}): Config {
  return loadConfigWith(benchEnv(overrides));
}

export interface BenchUser {
  /** The user's name (what addMember takes). */
  name: string;
  client: BenchClient;
  token: string;
  userId: string;
}

/** A new user (named after `label`) with a key of `scopes` on every project, and a client
 * (the lean client of rawHttpClient.ts unless `transport` says otherwise). */
export async function benchUser(
  service: { executor: Executor; url: string },
  label = 'bench',
  scopes = ['graph:write'],
  transport: BenchTransport = 'raw',
): Promise<BenchUser> {
  const name = uniqueLabel(label);
  const key = await createApiKey(service.executor, { user: name, scopes, projects: null });
  return {
    name,
    client: new BenchClient(service.url, key.token, transport),
    token: key.token,
    userId: key.user_id,
  };
}

/** A new user (as benchUser) made a member of `projectId` with `role`. */
export async function benchMember(
  service: { executor: Executor; url: string },
  projectId: string,
  role: 'editor' | 'viewer',
  label = 'member',
  transport: BenchTransport = 'raw',
): Promise<BenchUser> {
  const user = await benchUser(service, label, ['graph:write'], transport);
  await addMember(service.executor, { projectId, user: user.name, role });
  return user;
}

/** A new project and a working branch of it with `deltas` applied (version 1 when any). */
export async function branchWith(
  client: BenchClient,
  deltas: unknown[],
): Promise<{ projectId: string; branchId: string; version: number }> {
  const { projectId } = await client.createProject();
  const branchId = await client.fork(projectId);
  const version = deltas.length > 0 ? await client.applyDeltas(branchId, deltas, 0) : 0;
  return { projectId, branchId, version };
}
