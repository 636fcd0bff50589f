#!/usr/bin/env node
// Smoke check of a running local stack: Neo4j (RETURN 1, CREATE/MATCH/DELETE) and Redis (PING,
// SET/GET). Reads NEO4J_URI and REDIS_URL as exported by scripts/with-stack.sh / run-dev.sh.
//
//   scripts/with-stack.sh smoke 17687 16379 -- node scripts/stack-smoke.cjs
'use strict';

const neo4j = require('neo4j-driver');
const Redis = require('ioredis');

const neo4jUri = process.env.NEO4J_URI || 'bolt://127.0.0.1:7687';
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

async function checkNeo4j() {
  // Auth is disabled on the local launcher; basic credentials are accepted and ignored.
  const driver = neo4j.driver(neo4jUri, neo4j.auth.basic('neo4j', 'neo4j'));
  const t0 = Date.now();
  try {
    const info = await driver.getServerInfo();
    const session = driver.session();
    try {
      const one = await session.run('RETURN 1 AS one');
      if (one.records[0].get('one').toNumber() !== 1)
        throw new Error('RETURN 1 returned something else');
      const id = `smoke-${process.pid}-${Date.now()}`;
      await session.run('CREATE (:SmokeProbe {id: $id})', { id });
      const found = await session.run('MATCH (n:SmokeProbe {id: $id}) RETURN count(n) AS c', {
        id,
      });
      if (found.records[0].get('c').toNumber() !== 1)
        throw new Error('CREATE/MATCH round trip failed');
      await session.run('MATCH (n:SmokeProbe {id: $id}) DELETE n', { id });
    } finally {
      await session.close();
    }
    console.log(`neo4j ok: ${neo4jUri} ${info.agent} (${Date.now() - t0} ms)`);
  } finally {
    await driver.close();
  }
}

async function checkRedis() {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  const t0 = Date.now();
  try {
    await redis.connect();
    const pong = await redis.ping();
    if (pong !== 'PONG') throw new Error(`PING answered ${pong}`);
    await redis.set('smoke:key', 'v', 'EX', 10);
    if ((await redis.get('smoke:key')) !== 'v') throw new Error('SET/GET round trip failed');
    const version = /redis_version:(\S+)/.exec(await redis.info('server'))?.[1];
    console.log(`redis ok: ${redisUrl} ${version} (${Date.now() - t0} ms)`);
  } finally {
    redis.disconnect();
  }
}

Promise.all([checkNeo4j(), checkRedis()]).then(
  () => console.log('stack smoke: 2 passed, 0 failed'),
  (err) => {
    console.error('stack smoke FAILED:', err && err.stack ? err.stack : err);
    process.exit(1);
  },
);
