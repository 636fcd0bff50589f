/**
 * Redis Cluster failover (run by `make integration-redis-cluster` only, against the
 * 6-node cluster of scripts/redis-cluster.sh): the master that holds the queues'
 * hash tag `{gds}` is shut down while the service and a worker run. Requests never
 * fail with a 500: reads go on (auth cache bypassed, per-process rate limits), a
 * keyed write answers as when Redis is down (503) or succeeds, and once the replica
 * has taken over, idempotency keys and the queue work again without a restart.
 */
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'chai';
import { Redis, RedisOptions } from 'ioredis';
import { RunningWorker, startWorker } from '../../services/worker/startWorker';
import { decisionJobOptions } from '../../services/decisions/decisionJobs';
import { createLogger } from '../../shared/logging/logger';
import { clusterNodeOptions } from '../../shared/redis/redisClient';
import { decisionOut, eventually, workerConfig } from '../support/decisionFixtures';
import { addNode, uuid, workspace } from '../support/graphBuilders';
import { currentHarness, newUser, uniqueName } from '../support/harness';
import { clusterNode, TestQueue, testQueue } from '../support/redisSupport';

interface ClusterNode {
  id: string;
  address: string;
  port: number;
  master: boolean;
  masterId: string;
  slots: Array<[number, number]>;
}

/**
 * The cluster's ACL users (scripts/lib/redisCluster.sh): the service's own (gds, with
 * REDIS_URL's credentials) reads the cluster's layout; stopping a node takes `admin`
 * (clusterNode).
 */
const asService = (): RedisOptions => clusterNodeOptions(workerConfig().redisUrl);

/** CLUSTER NODES as seen by the node on `port`. */
async function clusterNodes(port: number): Promise<ClusterNode[]> {
  const redis = new Redis(port, '127.0.0.1', {
    ...asService(),
    lazyConnect: true,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    const text = (await redis.call('CLUSTER', 'NODES')) as string;
    return text
      .trim()
      .split('\n')
      .map((line) => {
        const [id, address, flags, masterId, , , , , ...slots] = line.split(' ');
        const hostPort = address.split('@')[0];
        return {
          id,
          address: hostPort,
          port: Number(hostPort.split(':')[1]),
          master: flags.includes('master') && !flags.includes('fail'),
          masterId,
          slots: slots
            .filter((s) => /^\d+(-\d+)?$/.test(s))
            .map((s) => {
              const [from, to] = s.split('-').map(Number);
              return [from, to ?? from] as [number, number];
            }),
        };
      });
  } finally {
    redis.disconnect();
  }
}

async function slotOf(port: number, key: string): Promise<number> {
  const redis = new Redis(port, '127.0.0.1', { ...asService(), lazyConnect: true });
  try {
    return Number(await redis.call('CLUSTER', 'KEYSLOT', key));
  } finally {
    redis.disconnect();
  }
}

describe('Redis Cluster: a master fails over while the service runs', function () {
  this.timeout(120_000);
  const config = workerConfig();
  const logger = createLogger({ level: 'silent' });
  const ports = (config.redisClusterNodes ?? []).map((n) => n.port);
  let stopped: number | undefined;
  /** The stopped node's directory (scripts/lib/redisCluster.sh keeps redis.conf there). */
  let stoppedDir: string | undefined;
  let worker: RunningWorker | undefined;
  let queue: TestQueue | undefined;
  const queueName = `decisions-failover-${randomUUID().slice(0, 8)}`;

  before(function () {
    if (!config.redisClusterNodes) this.skip();
  });
  after(async () => {
    await worker?.close();
    await queue?.close();
    // Start the stopped node again: it rejoins as a replica of its successor.
    if (stoppedDir) spawnSync('redis-server', [join(stoppedDir, 'redis.conf')]);
  });

  it('serves through the failover and recovers idempotency keys and queues by itself', async () => {
    const h = currentHarness();
    const user = await newUser();
    const w = await workspace(user);
    queue = testQueue(queueName, config);
    worker = await startWorker(config, logger, { decisions: queueName });

    const slot = await slotOf(ports[0], '{gds}');
    const before = await clusterNodes(ports[0]);
    const victim = before.find((n) => n.master && n.slots.some(([a, b]) => a <= slot && slot <= b));
    expect(victim, 'master of {gds}').to.not.equal(undefined);
    const replica = before.find((n) => n.masterId === victim?.id);
    expect(replica, 'replica of that master').to.not.equal(undefined);

    const node = clusterNode(victim!.port);
    const killer = new Redis(victim!.port, '127.0.0.1', {
      ...node.admin,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    killer.on('error', () => undefined);
    stoppedDir = ((await killer.call('CONFIG', 'GET', 'dir')) as string[])[1];
    expect(stoppedDir).to.equal(node.dir);
    await killer.call('SHUTDOWN', 'NOSAVE').catch(() => undefined);
    killer.disconnect();
    stopped = victim!.port;

    // Until the replica is promoted: no 500, reads served, keyed writes 200 or 503.
    const survivor = ports.find((p) => p !== stopped) as number;
    let promoted = false;
    const deadline = Date.now() + 60_000;
    while (!promoted && Date.now() < deadline) {
      const read = await user.api.get('/v1/projects');
      expect(read.status, 'read during failover').to.equal(200);
      const keyed = await w.post([addNode({})], {}, { 'Idempotency-Key': `k-${uuid()}` });
      expect([200, 503], `keyed write answered ${keyed.status}`).to.include(keyed.status);
      if (keyed.status === 200) w.version = keyed.body.branch.version;
      promoted = (await clusterNodes(survivor)).some((n) => n.id === replica!.id && n.master);
    }
    expect(promoted, 'replica promoted').to.equal(true);

    // Recovered by itself: a keyed write applies once and replays.
    const key = `k-${uuid()}`;
    const deltas = [addNode({})];
    const first = await eventually('Idempotency-Key accepted again', async () => {
      const res = await w.post(deltas, {}, { 'Idempotency-Key': key });
      return res.status === 200 ? res : undefined;
    });
    const again = await w.post(deltas, {}, { 'Idempotency-Key': key });
    expect(again.status).to.equal(200);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
    w.version = first.body.branch.version;

    // The queue's slot moved to the replica; the worker started before picks new jobs up.
    const projectId = (await user.api.post('/v1/projects', { name: uniqueName() })).body.project
      .id as string;
    const record = decisionOut(projectId);
    await eventually(
      'decision job added',
      () =>
        queue!.queue.add('decision', record, decisionJobOptions(config)).then(
          (job) => job,
          () => undefined,
        ),
      30_000,
      500,
    );
    await eventually(
      'decision ingested after failover',
      async () =>
        (await user.api.get(`/v1/decisions/${record.id}`)).status === 200 ? true : undefined,
      30_000,
      200,
    );
    expect((await h.anon.get('/readyz')).status).to.equal(200);
  });
});
