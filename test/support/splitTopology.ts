/**
 * Separate-process mode for the integration tests: the five service
 * processes (services/split/main.ts) are spawned as real child processes on
 * ephemeral loopback ports, and the gateway runs in this process with
 * SERVICE_URLS pointing at them, so every test request crosses a process boundary
 * with a signed identity exactly as under `make run-split`.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfigWith } from '../../shared/config/config';
import { SERVICE_NAMES, ServiceName } from '../../shared/config/serviceNames';
import type { Logger } from '../../shared/logging/logger';
import { RunningService, startService } from '../../services/gateway/server';

const ROOT = join(__dirname, '..', '..');

interface Child {
  name: ServiceName;
  process: ChildProcess;
  url: string;
}

/** Spawns one service process and resolves with its URL once it listens. */
function spawnService(name: ServiceName, env: Record<string, string>): Promise<Child> {
  const vars = Object.entries({ ...env, PORT: '0', LOG_LEVEL: 'info' }).map(
    ([k, v]) => `${k}=${v}`,
  );
  // `env` execs node itself, so signals reach the service process (no npx in between).
  const node = [process.execPath, '--import', 'tsx', 'services/split/main.ts', name];
  const child = spawn('env', [...vars, ...node], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start in time`)), 120_000);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before listening`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.includes('service process listening')) return;
      clearTimeout(timer);
      resolve({ name, process: child, url: (JSON.parse(line) as { url: string }).url });
    });
  });
}

function stopChild(child: Child): Promise<void> {
  return new Promise((resolve) => {
    if (child.process.exitCode !== null) return resolve();
    const kill = setTimeout(() => child.process.kill('SIGKILL'), 15_000);
    child.process.once('exit', () => {
      clearTimeout(kill);
      child.process.stdout?.destroy();
      resolve();
    });
    child.process.kill('SIGTERM');
  });
}

export interface SplitTopology extends RunningService {
  /** Every service process, with the URL it listens on. */
  processes: { name: ServiceName; url: string }[];
}

/** `replicas`: how many processes of a service to run (default one each). */
export async function startSplitTopology(
  env: Record<string, string>,
  logger: Logger,
  options: { replicas?: Partial<Record<ServiceName, number>> } = {},
): Promise<SplitTopology> {
  const secret = randomBytes(32).toString('base64url');
  const names = SERVICE_NAMES.flatMap((name) =>
    Array.from({ length: options.replicas?.[name] ?? 1 }, () => name),
  );
  const started = await Promise.allSettled(
    names.map((name) => spawnService(name, { ...env, INTERNAL_SECRET: secret })),
  );
  const children = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(children.map(stopChild));
    throw (failed as PromiseRejectedResult).reason;
  }
  // several processes of a service: `name=url1,url2` (the gateway calls them in turn)
  const serviceUrls = SERVICE_NAMES.map(
    (name) =>
      `${name}=${children
        .filter((c) => c.name === name)
        .map((c) => c.url)
        .join(',')}`,
  ).join(',');
  const config = loadConfigWith({ ...env, SERVICE_URLS: serviceUrls, INTERNAL_SECRET: secret });
  const gateway = await startService(config, logger);
  return {
    ...gateway,
    processes: children.map(({ name, url }) => ({ name, url })),
    close: async () => {
      await gateway.close();
      await Promise.all(children.map(stopChild));
    },
  };
}
