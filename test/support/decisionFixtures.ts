/**
 * Decisions in tests. Decisions enter only through ingestion: seedDecisions calls the same upsert
 * the `decisions` worker and graphctl use (fast, for the read tests); the ingestion tests go
 * through the real queue and worker. storedDecision reads what Neo4j holds, in any state.
 */
import { randomUUID } from 'node:crypto';
import { upsertDecisions } from '../../services/decisions/commands/upsertDecisions';
import type { DecisionRecord } from '../../services/decisions/decisionRecord';
import { parseDecision } from '../../services/decisions/parseDecision';
import { Config, loadConfigWith } from '../../shared/config/config';
import { cypher } from '../../shared/neo4j/namedQuery';
import { currentHarness, TEST_ENV } from './harness';

/** A DecisionOut-shaped record with every field set; override any of them. */
export function decisionOut(projectId: string, overrides: Record<string, unknown> = {}) {
  return {
    id: randomUUID(),
    project_id: projectId,
    state: 'accepted',
    anchor_ref: { type: 'node', id: randomUUID() },
    parent_decision_id: randomUUID(),
    superseded_by: null,
    resulting_node_ids: [randomUUID(), randomUUID()],
    retirement_reason: null,
    applied: true,
    annotations: 'annotated',
    capture_text: 'we chose a queue',
    check: 'tests pass',
    captured_at: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}

/** A timestamp `minutes` after a fixed origin (distinct, ordered captured_at values). */
export function minute(minutes: number): string {
  return new Date(Date.UTC(2026, 0, 1, 0, minutes)).toISOString();
}

/** Stores decisions through the ingestion upsert (the records must be valid). */
export async function seedDecisions(records: Record<string, unknown>[]): Promise<void> {
  const byProject = new Map<string, DecisionRecord[]>();
  for (const raw of records) {
    const parsed = parseDecision(raw);
    if (!parsed.ok) throw new Error(`fixture: invalid decision: ${parsed.problems.join('; ')}`);
    const list = byProject.get(parsed.record.project_id) ?? [];
    list.push(parsed.record);
    byProject.set(parsed.record.project_id, list);
  }
  for (const [projectId, list] of byProject) {
    await upsertDecisions(currentHarness().service.executor, projectId, list);
  }
}

const testFindDecision = cypher(
  'testFindDecision',
  'MATCH (d:Decision {id: $id}) RETURN d {.*} AS decision',
);

/** The stored decision in any state, or undefined. */
export async function storedDecision(id: string): Promise<DecisionRecord | undefined> {
  const rows = await currentHarness().service.executor.read<{ decision: DecisionRecord }>(
    testFindDecision,
    { id },
  );
  return rows[0]?.decision;
}

/** Worker settings for tests: few attempts, short backoff. */
export function workerConfig(overrides: Record<string, string> = {}): Config {
  return loadConfigWith({ ...TEST_ENV, JOB_ATTEMPTS: '3', JOB_BACKOFF_MS: '100', ...overrides });
}

/** Polls `check` until it returns a value other than undefined, or fails after timeoutMs. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
