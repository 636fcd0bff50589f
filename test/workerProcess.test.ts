/**
 * The worker as its own process (`node dist/services/worker/main.js` in the
 * containers): it starts against this run's Neo4j and Redis, and SIGTERM stops it
 * cleanly (exit 0) within the grace period the deployment files give it, also while
 * it is still starting (its signal handlers are installed before start-up, as in
 * every process, services/platform/runProcess.ts).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect } from 'chai';
import { currentHarness } from './support/harness';

const ROOT = join(__dirname, '..');

/** Starts the worker; resolves once a stdout line contains `awaited`. */
async function worker(
  redisUrl: string,
  awaited: string,
): Promise<{ child: ChildProcess; exited: Promise<number | null> }> {
  const { config } = currentHarness();
  const vars = [`NEO4J_URI=${config.neo4j.uri}`, `REDIS_URL=${redisUrl}`, 'LOG_LEVEL=info'];
  // `env` execs node itself, so the signal reaches the worker (no npx in between)
  const child = spawn(
    'env',
    [...vars, process.execPath, '--import', 'tsx', 'services/worker/main.ts'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${awaited}":\n${stderr}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.includes(awaited)) return;
      clearTimeout(timer);
      resolve();
    });
  });
  return { child, exited };
}

describe('worker process', function () {
  this.timeout(90_000);

  it('starts, and stops cleanly on SIGTERM', async () => {
    const { child, exited } = await worker(currentHarness().config.redisUrl, 'worker started');
    const stopping = Date.now();
    child.kill('SIGTERM');
    expect(await exited).to.equal(0);
    expect(Date.now() - stopping).to.be.lessThan(20_000);
  });

  it('stops cleanly on SIGTERM while start-up waits for a Redis that is not there', async () => {
    // nothing listens on port 1: the queues' workers retry their connection forever
    const { child, exited } = await worker('redis://127.0.0.1:1', 'worker error');
    const stopping = Date.now();
    child.kill('SIGTERM');
    expect(await exited).to.equal(0);
    expect(Date.now() - stopping).to.be.lessThan(10_000);
  });
});
