/**
 * `make bench`: starts the real service in-process against the throw-away Neo4j
 * and Redis of scripts/with-stack.sh and prints p50/p95 tables with ratios.
 *   npx tsx bench/run.ts [--sizes 1000,10000,100000] [--only writes,reads,merge,gateway]
 */
import { parseArgs } from 'node:util';
import { createLogger } from '../shared/logging/logger';
import { startService } from '../services/gateway';
import { benchConfig, benchUser } from './benchService';
import { printTable, ratio, Sample } from './stats';
import { reportMerge, runMergeBench } from './mergeBench';
import { runReadBench } from './readBench';
import { runWriteBench } from './writeBench';
import { reportGateway, runGatewayBench } from './gatewayBench';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '1000,10000,100000' },
      only: { type: 'string', default: 'writes,reads,merge,gateway' },
      'gateway-rounds': { type: 'string', default: '3' },
      'gateway-seconds': { type: 'string', default: '5' },
    },
  });
  const sizes = values.sizes.split(',').map(Number);
  const only = new Set(values.only.split(','));
  const config = benchConfig();
  const service = await startService(config, createLogger({ level: 'warn' }));
  try {
    const { client, token, userId } = await benchUser(service, 'bench', [
      'graph:write',
      'project:delete',
      'decisions:read',
    ]);
    if (only.has('writes'))
      report(await runWriteBench({ client, executor: service.executor, sizes }), sizes);
    if (only.has('reads'))
      reportReads(await runReadBench({ client, executor: service.executor, sizes, userId }), sizes);
    if (only.has('merge'))
      reportMerge(await runMergeBench({ client, executor: service.executor, sizes }));
    if (only.has('gateway')) {
      const connections = 10;
      const samples = await runGatewayBench({
        executor: service.executor,
        redis: service.redis,
        config,
        token,
        rounds: Number(values['gateway-rounds']),
        seconds: Number(values['gateway-seconds']),
        connections,
      });
      reportGateway(samples, connections);
    }
  } finally {
    await service.close();
  }
}

/** The sample of `label` at `size`. */
const finder = (samples: Sample[]) => (label: string, size: number) =>
  samples.find((s) => s.label === label && s.size === size);

function report(samples: Sample[], sizes: number[]): void {
  printTable('Graph writes and full reads', samples);
  const find = finder(samples);
  const small = Math.min(...sizes);
  console.log('\nRatios (p50):');
  for (const size of sizes) {
    for (const count of [10, 100]) {
      console.log(
        `  ${count}-delta batch @ ${size}: API/bare ${ratio(find(`${count}-delta batch (API)`, size), find(`${count}-delta batch (bare Cypher)`, size))}, vs @ ${small}: ${ratio(find(`${count}-delta batch (API)`, size), find(`${count}-delta batch (API)`, small))}`,
      );
    }
    console.log(
      `  full-graph read @ ${size}: API/bare ${ratio(find('full-graph read (API)', size), find('full-graph read (bare Cypher)', size))}`,
    );
  }
}

function reportReads(samples: Sample[], sizes: number[]): void {
  printTable('Scoped reads', samples);
  const find = finder(samples);
  const small = Math.min(...sizes);
  console.log('\nRatios (p50):');
  for (const size of sizes) {
    for (const op of ['subtree depth 3', 'neighborhood', 'boundary view']) {
      console.log(
        `  ${op} @ ${size}: API/bare ${ratio(find(`${op} (API)`, size), find(`${op} (bare Cypher)`, size))}, vs @ ${small}: ${ratio(find(`${op} (API)`, size), find(`${op} (API)`, small))}`,
      );
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
