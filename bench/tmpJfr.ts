import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createLogger } from '../shared/logging/logger';
import { startService } from '../services/gateway';
import { benchConfig, benchUser } from './benchService';
import { loadFixture } from './graphFixture';
import { batchWays, inProcessApplier } from './writeBench';

async function main() {
  const pid = readFileSync('.run/qs/neo4j.pid', 'utf8').split(/\s+/)[0];
  const config = benchConfig();
  const service = await startService(config, createLogger({ level: 'warn' }));
  try {
    const { executor, redis } = service;
    const { client, userId } = await benchUser(service, 'jfr');
    const applyInProcess = inProcessApplier({ executor, config, redis, userId });
    const project = await client.createProject();
    const fixture = await loadFixture(executor, project.mainId, 1000);
    const branchId = await client.fork(project.projectId);
    let version = 0;
    const ways = batchWays({ client, executor, applyInProcess, fixture, branchId });
    const side = process.env.SIDE ?? 'handler';
    for (let i = 0; i < 300; i++) version = side === 'bare' ? await ways.bare(10) : await ways.handler(10, version);
    execSync(`jcmd ${pid} JFR.start name=b settings=profile filename=/tmp/${side}.jfr`);
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < 30000) { version = side === 'bare' ? await ways.bare(10) : await ways.handler(10, version); n++; }
    execSync(`jcmd ${pid} JFR.stop name=b`);
    console.log(`${side}: ${n} batches in 30 s`);
  } finally { await service.close(); }
}
main().catch((e) => { console.error(e); process.exit(1); });
