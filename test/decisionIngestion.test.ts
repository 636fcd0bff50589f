/**
 * Decision ingestion: the BullMQ queue `decisions` processed by the worker (started in-process with
 * startWorker, on a fresh queue name per suite), and `graphctl decisions import`.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Job, Queue } from 'bullmq';
import { expect } from 'chai';
import { decisionJobOptions, decisionProcessor } from '../services/decisions/decisionJobs';
import { RunningWorker, startWorker } from '../services/worker/startWorker';
import { ServiceUnavailableError } from '../shared/errors/domainErrors';
import { createLogger } from '../shared/logging/logger';
import type { Executor } from '../shared/neo4j/executor';
import { decisionOut, eventually, storedDecision, workerConfig } from './support/decisionFixtures';
import { currentHarness, newUser, TestUser, uniqueName } from './support/harness';
import { graphctl } from './support/graphctl';
import { TestQueue, testQueue, testWorker } from './support/redisSupport';

const config = workerConfig();
const logger = createLogger({ level: 'silent' });

async function projectOf(user: TestUser): Promise<string> {
  return (await user.api.post('/v1/projects', { name: uniqueName() })).body.project.id;
}

/** Waits until the job is completed or failed and returns it as stored. */
async function finished(queue: Queue, job: Job): Promise<Job> {
  return eventually(`job ${job.id}`, async () => {
    const state = await job.getState();
    return state === 'completed' || state === 'failed' ? queue.getJob(job.id as string) : undefined;
  });
}

describe('decision ingestion: queue `decisions` and worker', function () {
  this.timeout(60_000);
  const queueName = `decisions-test-${randomUUID().slice(0, 8)}`;
  let queue: Queue;
  let queueHandle: TestQueue | undefined;
  let worker: RunningWorker;

  before(async () => {
    queueHandle = testQueue(queueName, config);
    queue = queueHandle.queue;
    worker = await startWorker(config, logger, { decisions: queueName });
  });
  after(async () => {
    await worker?.close();
    await queueHandle?.close();
  });

  const ingest = async (data: unknown) =>
    finished(queue, await queue.add('decision', data, decisionJobOptions(config)));

  it('stores a valid record; settled ones are served, unsettled ones stored but never served', async () => {
    const alice = await newUser();
    const projectId = await projectOf(alice);
    const accepted = decisionOut(projectId, {
      captured_at: '2026-03-01T12:00:00+02:00',
      extra: 'dropped',
    });
    const captured = decisionOut(projectId, { state: 'captured' });
    expect(await (await ingest(accepted)).getState()).to.equal('completed');
    expect(await (await ingest(captured)).getState()).to.equal('completed');
    const res = await alice.api.get(`/v1/decisions/${accepted.id}`);
    expect(res.status).to.equal(200);
    expect(res.body.decision.captured_at).to.equal('2026-03-01T10:00:00.000Z'); // stored in UTC
    expect(res.body.decision).to.not.have.property('extra'); // unknown keys dropped
    expect((await storedDecision(captured.id))?.state).to.equal('captured');
    expect((await alice.api.get(`/v1/decisions/${captured.id}`)).status).to.equal(404);
  });

  it('upserts by id: a later record replaces the fields, a null clears one', async () => {
    const alice = await newUser();
    const projectId = await projectOf(alice);
    const first = decisionOut(projectId, { state: 'captured' });
    await ingest(first);
    const successor = randomUUID();
    await ingest({ ...first, state: 'superseded', superseded_by: successor, annotations: null });
    const res = await alice.api.get(`/v1/decisions/${first.id}`);
    expect(res.status).to.equal(200);
    expect(res.body.decision).to.deep.include({
      state: 'superseded',
      superseded_by: successor,
      annotations: null,
    });
    const page = await alice.api.get(`/v1/decisions?project_id=${projectId}`);
    expect(page.body.decisions).to.have.length(1);
  });

  it('keeps bad jobs failed with the reason, without retries, and keeps working', async () => {
    const alice = await newUser();
    const projectId = await projectOf(alice);
    const other = await projectOf(alice);
    const owned = decisionOut(other);
    await ingest(owned);
    const cases: [unknown, RegExp][] = [
      ['just a string', /must be a JSON object/],
      [decisionOut(projectId, { id: 'nope' }), /id must be a uuid/],
      [decisionOut(projectId, { state: 'draft' }), /state must be one of/],
      [
        decisionOut(projectId, { anchor_ref: undefined, applied: 'yes' }),
        /anchor_ref is required.*applied must be a boolean/,
      ],
      [
        decisionOut(projectId, { captured_at: 'yesterday' }),
        /captured_at must be an RFC 3339 timestamp/,
      ],
      [
        decisionOut(projectId, { resulting_node_ids: [1, 2] }),
        /resulting_node_ids must be an array of strings/,
      ],
      [decisionOut(randomUUID()), /project .* not found/],
      [{ ...owned, project_id: projectId }, /belong to another project/],
    ];
    for (const [data, reason] of cases) {
      const job = await ingest(data);
      expect(await job.getState(), JSON.stringify(data)).to.equal('failed');
      expect(job.failedReason).to.match(reason);
      expect(job.attemptsMade).to.equal(1); // UnrecoverableError: no retry
    }
    expect(worker.workers.every((w) => w.isRunning())).to.equal(true);
    const good = decisionOut(projectId);
    expect(await (await ingest(good)).getState()).to.equal('completed');
    expect((await alice.api.get(`/v1/decisions/${good.id}`)).status).to.equal(200);
  });

  it('refuses a decision for a deleted project', async () => {
    const alice = await newUser();
    const projectId = await projectOf(alice);
    expect((await alice.api.delete(`/v1/projects/${projectId}`)).status).to.equal(200);
    const job = await ingest(decisionOut(projectId));
    expect(job.failedReason).to.match(/not found/);
  });
});

describe('decision ingestion: transient failures are retried with exponential backoff', function () {
  this.timeout(60_000);

  it('retries while Neo4j is unavailable, then stores the record', async () => {
    const alice = await newUser();
    const projectId = await projectOf(alice);
    const queueName = `decisions-retry-${randomUUID().slice(0, 8)}`;
    const down = {
      readTx: async () => {
        throw new ServiceUnavailableError('the graph database is unavailable, retry later');
      },
      writeTx: async () => {
        throw new ServiceUnavailableError('the graph database is unavailable, retry later');
      },
    } as unknown as Executor;
    const live = decisionProcessor(currentHarness().service.executor, logger);
    const unavailable = decisionProcessor(down, logger);
    const queueHandle = testQueue(queueName, config);
    const queue = queueHandle.queue;
    const worker = testWorker(queueName, config, (job) =>
      job.attemptsMade < 2 ? unavailable(job) : live(job),
    );
    try {
      const record = decisionOut(projectId);
      const started = Date.now();
      const options = {
        ...decisionJobOptions(config),
        backoff: { type: 'exponential', delay: 200 },
      };
      const job = await finished(queue, await queue.add('decision', record, options));
      expect(await job.getState()).to.equal('completed');
      expect(job.attemptsMade).to.equal(3);
      expect(Date.now() - started).to.be.at.least(200 + 400); // 200 ms, then 400 ms
      expect((await alice.api.get(`/v1/decisions/${record.id}`)).status).to.equal(200);
    } finally {
      await worker.close();
      await queueHandle.close();
    }
  });
});

async function jsonLines(lines: string[]): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'decisions-')), 'decisions.jsonl');
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

describe('graphctl decisions import (JSON Lines)', function () {
  this.timeout(90_000);

  it('imports every state, prints {"imported": N}, and a re-import changes nothing', async () => {
    const alice = await newUser();
    const projectId = await projectOf(alice);
    const records = ['accepted', 'rejected', 'captured', 'interviewing'].map((state) =>
      decisionOut(projectId, { state }),
    );
    const withoutProject: Record<string, unknown> = decisionOut(projectId, { state: 'retired' });
    delete withoutProject.project_id; // taken from --project
    // the first record again, later in the file: an upsert, counted once, and the later line wins
    const path = await jsonLines([
      ...records.map((r) => JSON.stringify({ ...r, annotations: 'first' })),
      '',
      JSON.stringify(withoutProject),
      JSON.stringify(records[0]),
    ]);
    for (let round = 0; round < 2; round += 1) {
      const out = await graphctl('decisions', 'import', '--project', projectId, '--file', path);
      expect(out.code, out.stderr).to.equal(0);
      expect(JSON.parse(out.stdout)).to.deep.equal({ imported: 5 });
    }
    const page = await alice.api.get(`/v1/decisions?project_id=${projectId}`);
    expect(page.body.decisions.map((d: any) => d.state).sort()).to.deep.equal([
      'accepted',
      'rejected',
      'retired',
    ]);
    expect((await storedDecision(records[3].id))?.state).to.equal('interviewing');
    const first = page.body.decisions.find((d: any) => d.id === records[0].id);
    expect(first.annotations).to.equal(records[0].annotations ?? null);
  });

  it('reports every invalid line by number and imports nothing', async () => {
    const alice = await newUser();
    const projectId = await projectOf(alice);
    const good = decisionOut(projectId);
    const path = await jsonLines([
      JSON.stringify(good),
      '{not json',
      JSON.stringify(decisionOut(projectId, { state: 'draft' })),
      JSON.stringify(decisionOut(randomUUID())),
    ]);
    const out = await graphctl('decisions', 'import', '--project', projectId, '--file', path);
    expect(out.code).to.equal(1);
    expect(out.stdout).to.equal('');
    const error = JSON.parse(out.stderr.split('\n')[0]);
    expect(error.error).to.equal('invalid_lines');
    expect(error.lines.map((l: any) => l.line)).to.deep.equal([2, 3, 4]);
    expect(error.lines[0].reason).to.match(/not JSON/);
    expect(error.lines[1].reason).to.match(/state must be one of/);
    expect(error.lines[2].reason).to.match(/differs from --project/);
    expect(await storedDecision(good.id)).to.equal(undefined);
  });

  it('fails clearly for an unknown project, a missing file, and documents itself in --help', async () => {
    const nowhere = randomUUID();
    const path = await jsonLines([JSON.stringify(decisionOut(nowhere))]);
    const unknown = await graphctl('decisions', 'import', '--project', nowhere, '--file', path);
    expect(unknown.code).to.equal(1);
    expect(JSON.parse(unknown.stderr.split('\n')[0]).error).to.equal('not_found');
    const alice = await newUser();
    const projectId = await projectOf(alice);
    const missing = await graphctl(
      'decisions',
      'import',
      '--project',
      projectId,
      '--file',
      '/nonexistent.jsonl',
    );
    expect(JSON.parse(missing.stderr.split('\n')[0]).error).to.equal('file_unreadable');
    const usage = await graphctl('decisions', 'import', '--project', projectId);
    expect(usage.code).to.equal(2);
    const help = await graphctl('decisions', 'import', '--help');
    expect(help.code).to.equal(0);
    expect(JSON.parse(help.stdout).usage).to.match(/All or nothing/);
  });
});
