/**
 * `make bench-web`: time to first render of the web viewer in headless chromium,
 * from navigation to the laid-out canvas with every top-level node drawn, for a
 * 1k-node working branch and a 100k-node main, both opened at their top level
 * (getTopLevel / getMainTopLevel; insides load on expand). Prints medians and
 * the 100k/1k ratio (target: within 1.5x).
 *   npx tsx bench/webBench.ts [--small 1000] [--large 100000] [--runs 11]
 */
import { parseArgs } from 'node:util';
import { createLogger } from '../shared/logging/logger';
import { startService } from '../services/gateway';
import { launchChromium, openWithKey } from '../test/support/webBrowser';
import { buildWeb } from '../web/build';
import { benchConfig, benchUser } from './benchService';
import { percentile, printTable, ratio, Sample, verdict } from './stats';
import { loadNestedFixture } from './webFixture';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      small: { type: 'string', default: '1000' },
      large: { type: 'string', default: '100000' },
      runs: { type: 'string', default: '11' },
    },
  });
  const small = Number(values.small);
  const large = Number(values.large);
  const runs = Number(values.runs);
  await buildWeb();
  const config = benchConfig({ LOG_LEVEL: 'error' });
  const service = await startService(config, createLogger({ level: 'error' }));
  const browser = await launchChromium();
  try {
    const { client, token } = await benchUser(service, 'bench-web');
    const smallProject = await client.createProject();
    const branchId = await client.fork(smallProject.projectId);
    const smallGraph = await loadNestedFixture(service.executor, branchId, small);
    const largeProject = await client.createProject();
    const started = performance.now();
    const largeGraph = await loadNestedFixture(service.executor, largeProject.mainId, large);
    process.stderr.write(
      `  fixtures: ${smallGraph.total} nodes on a branch, ${largeGraph.total} on main (${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
    );

    const page = await browser.context.newPage();
    // the viewer's own errors, so a render that never finishes says why
    page.on('pageerror', (error) => process.stderr.write(`  page error: ${error.message}\n`));
    page.on('response', (response) => {
      if (response.status() >= 400)
        process.stderr.write(`  ${response.status()}: ${response.url()}\n`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') process.stderr.write(`  console: ${message.text()}\n`);
    });
    await openWithKey(page, service.url, token);
    await page.waitForSelector('[data-testid="projects"]');
    const firstRender = async (hash: string, top: number) => {
      await page.goto('about:blank');
      await page.goto(`${service.url}/app${hash}`);
      await page.waitForSelector('[data-testid="canvas"][data-ready="true"]', { timeout: 120_000 });
      const drawn = await page.$$eval('.react-flow__node', (els) => els.length);
      if (drawn !== top) throw new Error(`expected ${top} top-level nodes on screen, saw ${drawn}`);
    };
    // interleaved (branch, main, branch, main, ...) so load on a shared machine hits both alike
    const views = [
      {
        label: 'first render, branch at top level',
        size: smallGraph.total,
        open: () =>
          firstRender(`#/p/${smallProject.projectId}/b/${branchId}/graph`, smallGraph.top),
      },
      {
        label: 'first render, main at top level',
        size: largeGraph.total,
        open: () => firstRender(`#/p/${largeProject.projectId}/b/main/graph`, largeGraph.top),
      },
    ];
    const times = views.map(() => [] as number[]);
    for (let i = -2; i < runs; i++) {
      for (const [v, view] of views.entries()) {
        const t0 = performance.now();
        await view.open();
        if (i >= 0) times[v].push(performance.now() - t0);
      }
    }
    const samples: Sample[] = views.map((view, v) => {
      const sorted = [...times[v]].sort((a, b) => a - b);
      return {
        label: view.label,
        size: view.size,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        runs,
      };
    });
    printTable('Web viewer: time to first render (headless chromium)', samples);
    console.log(
      `\nRatio (p50): main @ ${largeGraph.total} / branch @ ${smallGraph.total} = ${ratio(samples[1], samples[0])} (target within 1.5x: ${verdict(samples[1].p50 <= 1.5 * samples[0].p50)})`,
    );

    // Find node: the name search the viewer sends (searchNodes), beside the same on
    // the small branch; served from indexes on the lower-cased name, so it should not
    // follow size (bench/run.ts --only search measures it against its target).
    const search = async (id: string) => {
      const t0 = performance.now();
      await client.call('GET', `/v1/branches/${id}/nodes/search?q=step4&limit=20`);
      return performance.now() - t0;
    };
    const searchTimes: number[][] = [[], []];
    for (let i = -2; i < runs; i++) {
      const small = await search(branchId);
      const large = await search(largeProject.mainId);
      if (i < 0) continue;
      searchTimes[0].push(small);
      searchTimes[1].push(large);
    }
    const searchSamples: Sample[] = [smallGraph.total, largeGraph.total].map((size, v) => {
      const sorted = [...searchTimes[v]].sort((a, b) => a - b);
      return {
        label: 'searchNodes q=step4',
        size,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        runs,
      };
    });
    printTable('Web viewer: Find node (searchNodes)', searchSamples);
    console.log(
      `\nRatio (p50): search @ ${largeGraph.total} / @ ${smallGraph.total} = ${ratio(searchSamples[1], searchSamples[0])}`,
    );
  } finally {
    await browser.close();
    await service.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
