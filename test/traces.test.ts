/**
 * Distributed traces (OTEL_* set): a delta batch (applyDeltas) and a merge (mergeBranch)
 * through separate-process mode, each one trace from the gateway's server span through
 * its call to the owning service process to the named-query spans of its Neo4j
 * statements, exported over OTLP/HTTP to a receiver inside the test. A caller's W3C
 * traceparent is continued; no statement parameter, nor any text the caller sent, is
 * recorded. An MCP tool call's API request, answered inside the gateway, is a span
 * named after its operation under the /mcp request's span. Then a purge job: its span in the worker links back to the request that
 * queued it. The stack is this test's own: five service processes spawned with the
 * OTEL_* variables, and the gateway and worker in this process with tracing started as
 * every process starts it (shared/telemetry/telemetry.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import { expect } from 'chai';
import { loadConfigWith } from '../shared/config/config';
import { createLogger } from '../shared/logging/logger';
import { startTelemetry, Telemetry, traceLogFields } from '../shared/telemetry/telemetry';
import { createApiKey } from '../services/identity/commands/createApiKey';
import { startWorker, RunningWorker } from '../services/worker';
import { ApiClient } from './support/client';
import { Contract } from './support/contract';
import { addNode, workspace } from './support/graphBuilders';
import { ALL_SCOPES, TEST_ENV, TestUser } from './support/harness';
import { connectHttp, ok } from './support/mcpClients';
import { descendsFrom, OtlpReceiver, ReceivedSpan, SPAN_KIND } from './support/otlpReceiver';
import { SplitTopology, startSplitTopology } from './support/splitTopology';

const GATEWAY = 'graph-design-service';
const GRAPH_WRITE = 'graph-design-graph-write';

describe('distributed traces (OTEL_* set, separate processes)', function () {
  this.timeout(180_000);
  const receiver = new OtlpReceiver();
  let telemetry: Telemetry | undefined;
  let topology: SplitTopology | undefined;
  let worker: RunningWorker | undefined;
  let user: TestUser;

  before(async () => {
    await receiver.start();
    const env = {
      ...TEST_ENV,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      // this stack's first batch plans the batch statements afresh, beside the harness's
      // own processes on a loaded machine: that may pass the usual 30 s
      NEO4J_TX_TIMEOUT_MS: '300000',
    };
    const config = loadConfigWith(env);
    const logger = createLogger({ level: 'error' });
    telemetry = await startTelemetry({
      settings: config.telemetry,
      processName: GATEWAY,
      serviceVersion: config.serviceVersion,
      logger,
    });
    topology = await startSplitTopology(env, logger);
    worker = await startWorker(config, logger, {
      decisions: `decisions-traces-${randomUUID()}`,
      purge: `purge-traces-${randomUUID()}`,
    });
    const contract = new Contract();
    await contract.init();
    const name = `traces-${randomUUID()}`;
    const key = await createApiKey(topology.executor, {
      user: name,
      scopes: ALL_SCOPES,
      projects: null,
    });
    const api = new ApiClient(topology.url, contract).withToken(key.token);
    user = { name, userId: key.user_id, keyId: key.key_id, token: key.token, api };
  });

  after(async () => {
    await worker?.close();
    await topology?.close();
    await telemetry?.close();
    await receiver.close();
  });

  /** The request's gateway server span, once its service process has exported its spans too. */
  async function requestTrace(operationId: string, traceId?: string) {
    return receiver.waitFor(`trace of ${operationId}`, () => {
      const root = receiver.spans.find(
        (s) =>
          s.service === GATEWAY &&
          s.kind === SPAN_KIND.server &&
          s.attributes['gds.operation_id'] === operationId &&
          (traceId === undefined || s.traceId === traceId),
      );
      if (!root) return undefined;
      const spans = receiver.trace(root.traceId);
      const owner = spans.find((s) => s.service === GRAPH_WRITE && s.kind === SPAN_KIND.server);
      const statements = spans.filter((s) => s.attributes['db.system'] === 'neo4j');
      return owner && statements.length > 0 ? { root, owner, spans, statements } : undefined;
    });
  }

  /** gateway span → its call → service process span → named-query spans, one trace. */
  function expectRequestTree(
    found: {
      root: ReceivedSpan;
      owner: ReceivedSpan;
      spans: ReceivedSpan[];
      statements: ReceivedSpan[];
    },
    operationId: string,
  ) {
    const { root, owner, spans, statements } = found;
    const call = spans.find((s) => s.spanId === owner.parentSpanId);
    expect(call, 'the service span has the gateway call as parent').to.include({
      service: GATEWAY,
      kind: SPAN_KIND.client,
    });
    expect(descendsFrom(call!, root, spans)).to.equal(true);
    expect(owner.attributes['gds.operation_id']).to.equal(operationId);
    expect(owner.name).to.equal(`POST /internal/v1/${operationId}`);
    for (const statement of statements) {
      expect(statement.service).to.equal(GRAPH_WRITE);
      expect(statement.kind).to.equal(SPAN_KIND.client);
      expect(descendsFrom(statement, owner, spans), statement.name).to.equal(true);
      expect(statement.attributes).to.include({
        'db.system': 'neo4j',
        'db.operation.name': statement.name,
      });
      expect(statement.attributes['db.namespace']).to.be.a('string').and.not.equal('');
      expect(statement.name).to.match(/^[a-zA-Z][A-Za-z0-9]*$/);
    }
  }

  /** No attribute of any span of the trace holds `secret` (a parameter value the caller sent). */
  function expectNowhere(spans: ReceivedSpan[], secret: string) {
    for (const span of spans)
      for (const [key, value] of Object.entries(span.attributes))
        expect(JSON.stringify(value), `${span.name} ${key}`).not.to.include(secret);
  }

  it('traces a delta batch (applyDeltas) from the gateway to its statements, continuing the caller’s traceparent', async () => {
    const ws = await workspace(user);
    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    const secret = `secret-${randomUUID()}`;
    const res = await ws.post(
      [addNode({ name: secret, description: secret })],
      {},
      {
        traceparent: `00-${traceId}-${parentId}-01`,
      },
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);

    const found = await requestTrace('applyDeltas', traceId);
    expect(found.root.parentSpanId, 'the caller’s span is the gateway span’s parent').to.equal(
      parentId,
    );
    expect(found.root.name).to.equal('POST /v1/branches/{branch_id}/deltas');
    expectRequestTree(found, 'applyDeltas');
    expect(found.statements.map((s) => s.name)).to.include('lockAndPrefetchAddRun');
    expectNowhere(found.spans, secret);
    // the statements carry no parameter at all (the path's ids are the HTTP spans' url.path)
    expectNowhere(found.statements, ws.branchId);
  });

  it('traces a merge (mergeBranch) the same way, in a trace of its own when the caller sends none', async () => {
    const ws = await workspace(user);
    const secret = `secret-${randomUUID()}`;
    await ws.apply([addNode({ name: secret })]);
    const merged = await user.api.post(`/v1/branches/${ws.branchId}/merge`, {
      expected_version: ws.version,
    });
    expect(merged.status, JSON.stringify(merged.body)).to.equal(200);

    const found = await requestTrace('mergeBranch');
    expect(found.root.parentSpanId).to.equal(undefined);
    expectRequestTree(found, 'mergeBranch');
    expectNowhere(found.spans, secret);
    expectNowhere(found.statements, ws.branchId);
  });

  it('traces an MCP tool call as the API operation it makes, inside the /mcp request’s span', async () => {
    const ws = await workspace(user);
    const secret = `secret-${randomUUID()}`;
    const mcp = await connectHttp(user.token, topology!.url);
    try {
      await ok(mcp, 'apply_deltas', {
        branch_id: ws.branchId,
        deltas: [addNode({ name: secret })],
        expected_version: ws.version,
      });
    } finally {
      await mcp.close();
    }
    // the tool's API request is answered in the gateway's process: a span of its own,
    // named after the operation as a server span is, whose parent is the /mcp request
    const found = await receiver.waitFor('trace of the tool call', () => {
      const call = receiver.spans.find(
        (s) =>
          s.service === GATEWAY &&
          s.kind === SPAN_KIND.internal &&
          s.attributes['gds.operation_id'] === 'applyDeltas',
      );
      if (!call) return undefined;
      const spans = receiver.trace(call.traceId);
      const owner = spans.find((s) => s.service === GRAPH_WRITE && s.kind === SPAN_KIND.server);
      const statements = spans.filter((s) => s.attributes['db.system'] === 'neo4j');
      return owner && statements.length > 0 ? { call, owner, spans, statements } : undefined;
    });
    expect(found.call.name).to.equal('POST /v1/branches/{branch_id}/deltas');
    expect(found.call.attributes['http.response.status_code']).to.equal(200);
    const mcpSpan = found.spans.find((s) => s.service === GATEWAY && s.kind === SPAN_KIND.server);
    expect(mcpSpan, 'the /mcp request’s server span').to.not.equal(undefined);
    expect(descendsFrom(found.call, mcpSpan!, found.spans)).to.equal(true);
    expect(mcpSpan!.name, 'it keeps its own name').to.not.include('{branch_id}');
    expect(mcpSpan!.attributes['gds.operation_id']).to.equal(undefined);
    expect(descendsFrom(found.owner, found.call, found.spans)).to.equal(true);
    for (const statement of found.statements)
      expect(descendsFrom(statement, found.owner, found.spans), statement.name).to.equal(true);
    expectNowhere(found.spans, secret);
  });

  it('links a purge job’s span to the request that queued it (context carried in the job data)', async () => {
    const projectId = randomUUID();
    const tracer = trace.getTracer('traces.test');
    const queued = await tracer.startActiveSpan('queueing request', async (span) => {
      await worker!.purgeQueue.enqueue({ kind: 'project', projectId });
      span.end();
      return span.spanContext();
    });
    const job = await receiver.waitFor('purge job span', () =>
      receiver.spans.find(
        (s) =>
          s.kind === SPAN_KIND.consumer &&
          s.attributes['messaging.message.id'] === `project-${projectId}`,
      ),
    );
    const publish = receiver.spans.find(
      (s) => s.kind === SPAN_KIND.producer && s.traceId === queued.traceId,
    );
    expect(publish, 'the publish span is in the queueing trace').to.not.equal(undefined);
    expect(publish!.parentSpanId).to.equal(queued.spanId);
    expect(job.traceId, 'a job runs in a trace of its own').to.not.equal(queued.traceId);
    expect(job.links).to.deep.include({ traceId: queued.traceId, spanId: publish!.spanId });
    const statements = await receiver.waitFor('the job’s statements', () => {
      const found = receiver
        .trace(job.traceId)
        .filter((s) => s.attributes['db.system'] === 'neo4j');
      return found.length > 0 ? found : undefined;
    });
    for (const statement of statements)
      expect(descendsFrom(statement, job, receiver.trace(job.traceId))).to.equal(true);
    expectNowhere(statements, projectId);
  });

  it('puts trace_id and span_id on the log lines written while a span is active', async () => {
    const file = join(tmpdir(), `traces-log-${randomUUID()}.jsonl`);
    const log = createLogger({ level: 'info', destination: file, mixin: traceLogFields });
    const inside = trace.getTracer('traces.test').startActiveSpan('logging request', (span) => {
      log.info('inside');
      span.end();
      return span.spanContext();
    });
    log.info('outside');
    log.flush();
    await new Promise((r) => setTimeout(r, 300));
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((l) => l.msg === 'inside')).to.include({
      trace_id: inside.traceId,
      span_id: inside.spanId,
    });
    expect(lines.find((l) => l.msg === 'outside')).to.not.have.property('trace_id');
  });
});
