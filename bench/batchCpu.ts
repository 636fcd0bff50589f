/**
 * Where a batch's CPU goes (10 deltas unless --deltas), against the bare Cypher of the same writes (the
 * finding records the batch keeps included; a fourth side leaves them out): all run
 * in this process on one working branch of a 1k-node main (the batch through HTTP, then
 * through the graph service's applyDeltas handler without HTTP), alternating in rounds
 * of --batches each. Each
 * round prints the p50 latency and the CPU time per batch of this process (Node: the
 * service's code and the driver) and of the Neo4j JVM (from /proc, through the stack's
 * pid file), so a change shows as a ratio of the same run whichever side it moves. The
 * first rounds include the JVM compiling the statements' plans; read the later ones.
 *
 *   make bench-cpu   (scripts/build-bench.sh, then scripts/with-stack.sh bench-cpu ...
 *                     -- node .run/bench-dist/bench/batchCpu.js
 *                     --pid-file .run/bench-cpu/neo4j.pid [--rounds 8] [--batches 300]
 *                     [--deltas 10])
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createLogger } from '../shared/logging/logger';
import { startService } from '../services/gateway';
import { benchConfig, benchUser } from './benchService';
import { loadFixture } from './graphFixture';
import { batchWays, inProcessApplier } from './writeBench';

/** CPU time (user + system, ms) the Neo4j process has used, from /proc/<pid>/stat. */
function neo4jCpu(pid: number): () => number {
  const ticksToMs = 10; // USER_HZ is 100 on Linux
  return () => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * ticksToMs;
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main() {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '8' },
      batches: { type: 'string', default: '300' },
      // deltas per batch (even: each new node comes with its wire)
      deltas: { type: 'string', default: '10' },
      // the stack's pid file (scripts/lib/neo4j.sh: "PID PORT DATA_DIR")
      'pid-file': { type: 'string' },
    },
  });
  if (!values['pid-file']) throw new Error('--pid-file: the Neo4j pid file of the stack');
  const jvmCpu = neo4jCpu(Number(readFileSync(values['pid-file'], 'utf8').split(/\s+/)[0]));
  const config = benchConfig();
  const service = await startService(config, createLogger({ level: 'warn' }));
  try {
    const { executor, redis } = service;
    const { client, userId } = await benchUser(service, 'batch-cpu');
    const applyInProcess = inProcessApplier({ executor, config, redis, userId });
    const project = await client.createProject();
    const fixture = await loadFixture(executor, project.mainId, 1000);
    const branchId = await client.fork(project.projectId);
    let version = 0;
    const count = Number(values.deltas);
    const ways = batchWays({ client, executor, applyInProcess, fixture, branchId });
    const sides: [string, () => Promise<void>][] = [
      ['API    ', async () => void (version = await ways.api(count, version))],
      ['handler', async () => void (version = await ways.handler(count, version))],
      ['bare   ', async () => void (version = await ways.bare(count))],
      ['bare without findings', async () => void (version = await ways.bare(count, false))],
    ];
    const batches = Number(values.batches);
    for (let round = 1; round <= Number(values.rounds); round++) {
      const p50: number[] = [];
      for (const [label, run] of sides) {
        const times: number[] = [];
        const [node, jvm] = [process.cpuUsage(), jvmCpu()];
        for (let i = 0; i < batches; i++) {
          const started = performance.now();
          await run();
          times.push(performance.now() - started);
        }
        const used = process.cpuUsage(node);
        const perBatch = (ms: number) => (ms / batches).toFixed(2);
        p50.push(median(times));
        console.log(
          `round ${round} ${label}: p50 ${median(times).toFixed(2)} ms; CPU per batch: Node ${perBatch((used.user + used.system) / 1000)} ms, Neo4j ${perBatch(jvmCpu() - jvm)} ms`,
        );
      }
      const ratio = (a: number, b: number) => `${(p50[a] / p50[b]).toFixed(2)}x`;
      console.log(
        `round ${round} p50 API/bare ${ratio(0, 2)}, handler/bare ${ratio(1, 2)}, API/handler ${ratio(0, 1)} (handler against the bare batch without the finding records: ${ratio(1, 3)})`,
      );
    }
  } finally {
    await service.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
