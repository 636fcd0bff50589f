/**
 * `make bench`: starts the real service in-process against the throw-away Neo4j
 * and Redis of scripts/with-stack.sh and prints p50/p95 tables with ratios, then the
 * versioned store's scaling ratios, all measured in this one run.
 *   node .run/bench-dist/bench/run.js [--sizes 1000,10000,100000]
 *     [--only writes,reads,bulk,merge,history,blame,layout,search,gateway,tracing,rebase,review,
 *       feed,writers] [--writers-seconds 20]
 * (compiled by scripts/build-bench.sh, as the image compiles the service; `npx tsx
 * bench/run.ts` runs it through the development loader instead)
 */
import { parseArgs } from 'node:util';
import { createLogger } from '../shared/logging/logger';
import { startService } from '../services/gateway';
import { benchConfig, benchUser } from './benchService';
import { printTable, Sample, verdict } from './stats';
import { reportBulk, runBulkBench } from './bulkBench';
import { runMergeBench } from './mergeBench';
import { reportRebase, runRebaseBench } from './rebaseBench';
import { reportReview, runReviewBench } from './reviewBench';
import { reportFeed, runFeedBench } from './feedBench';
import { reportWriters, runWritersBench } from './writersBench';
import { runReadBench } from './readBench';
import { runWriteBench } from './writeBench';
import { runHistoryBench, StorageFigure } from './historyBench';
import { runLayoutBench } from './layoutBench';
import { runSearchBench } from './searchBench';
import { LONG, runNodeHistoryBench, SHORT } from './nodeHistoryBench';
import { reportGateway, runGatewayBench } from './gatewayBench';
import { reportTracing, runTracingBench } from './tracingBench';
import {
  reportLayout,
  reportReads,
  reportSearch,
  reportStorage,
  reportTargets,
  reportWrites,
} from './benchReport';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '1000,10000,100000' },
      only: {
        type: 'string',
        default:
          'writes,reads,bulk,merge,history,blame,layout,search,gateway,tracing,rebase,review,feed,writers',
      },
      'gateway-rounds': { type: 'string', default: '5' },
      'gateway-seconds': { type: 'string', default: '4' },
      // the concurrent writers' timed seconds per layout and size (writersBench.ts)
      'writers-seconds': { type: 'string', default: '20' },
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
    const all: Sample[] = [];
    let storage: StorageFigure[] = [];
    const { executor } = service;
    // a part that fails is reported and the others still run (each prints its figures
    // as it measures them); the run then exits non-zero. Each part's time is printed
    // after it: a whole run takes about 85 minutes, and its parts' times tell which
    // ones to run alone (--only) when a run must fit in less.
    const part = async (name: string, run: () => Promise<void>) => {
      if (!only.has(name)) return;
      const started = Date.now();
      try {
        await run();
      } catch (error) {
        process.exitCode = 1;
        console.log(`\n${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      console.log(`\n[${name}: ${((Date.now() - started) / 60_000).toFixed(1)} min]`);
    };
    await part('writes', async () => {
      const samples = await runWriteBench({
        client,
        executor,
        sizes,
        config,
        redis: service.redis,
        userId,
      });
      reportWrites(samples, sizes);
      all.push(...samples);
    });
    await part('reads', async () => {
      const samples = await runReadBench({ client, executor, sizes, userId });
      reportReads(samples, sizes);
      all.push(...samples);
    });
    await part('bulk', async () => {
      const samples = await runBulkBench({ client, executor, sizes });
      printTable('Bulk batches', samples);
      reportBulk(samples, sizes);
    });
    await part('merge', async () => {
      const samples = await runMergeBench({ client, executor, sizes });
      printTable('Merge into main', samples);
      all.push(...samples);
    });
    await part('rebase', async () => {
      const figures = await runRebaseBench({ client, executor, metrics: service.metrics, sizes });
      reportRebase(figures, sizes);
    });
    await part('review', async () => {
      reportReview(await runReviewBench({ service, client, sizes }), sizes);
    });
    await part('feed', async () => {
      reportFeed(await runFeedBench({ service, client, config }));
    });
    await part('history', async () => {
      const history = await runHistoryBench({ client, executor, sizes });
      printTable('Revert', history.samples);
      reportStorage(history.storage);
      all.push(...history.samples);
      storage = history.storage;
    });
    await part('blame', async () => {
      const figures = await runNodeHistoryBench({ client, executor, userId });
      printTable('Node history (getNodeHistory)', figures.samples, () => 'trail length');
      const [short, long] = figures.samples;
      console.log(
        `node history, trail of ${LONG} against ${SHORT} changes: ${figures.ratio} (target within 1.3x: ${verdict(long.p50 <= 1.3 * short.p50)})`,
      );
    });
    await part('layout', async () => {
      reportLayout(await runLayoutBench({ client, executor, sizes }), sizes);
    });
    await part('search', async () => {
      reportSearch(await runSearchBench({ client, executor, sizes }), sizes);
    });
    reportTargets(all, storage, sizes);
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
    if (only.has('tracing')) {
      // two gateway processes of their own, tracing on and off, alternating
      const connections = 10;
      const result = await runTracingBench({
        executor: service.executor,
        rounds: Number(values['gateway-rounds']),
        seconds: Number(values['gateway-seconds']),
        connections,
      });
      reportTracing(result, connections);
    }
    // last of the parts: at 100k it loads eleven 100k mains (23 minutes of its 33), so a
    // run stopped for time has every other part's figures
    await part('writers', async () => {
      const figures = await runWritersBench({
        client,
        executor,
        metrics: service.metrics,
        sizes,
        seconds: Number(values['writers-seconds']),
      });
      reportWriters(figures);
    });
  } finally {
    await service.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
