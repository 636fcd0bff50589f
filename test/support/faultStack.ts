/**
 * A Neo4j + Redis pair of its own for the fault tests: its own STACK_DIR and ports, started and
 * stopped through scripts/neo4j.sh and scripts/redis.sh, never the shared test stack. Both die with
 * this process (STACK_PARENT_PID).
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface FaultStackOptions {
  name: string;
  neo4jPort: number;
  redisPort: number;
}

export class FaultStack {
  readonly dir: string;
  readonly neo4jUri: string;
  readonly redisUrl: string;

  constructor(private readonly options: FaultStackOptions) {
    this.dir = join(ROOT, '.run', options.name);
    this.neo4jUri = `bolt://127.0.0.1:${options.neo4jPort}`;
    this.redisUrl = `redis://127.0.0.1:${options.redisPort}`;
  }

  /** Runs scripts/<service>.sh <action> with this stack's settings (stdout/err kept in a log). */
  private script(service: 'neo4j' | 'redis', action: 'start' | 'stop'): Promise<void> {
    const vars = [
      `STACK_DIR=${this.dir}`,
      `NEO4J_DATA_DIR=${join(this.dir, 'neo4j')}`,
      `NEO4J_BOLT_PORT=${this.options.neo4jPort}`,
      `REDIS_PORT=${this.options.redisPort}`,
      `STACK_PARENT_PID=${process.pid}`,
      'NEO4J_HEAP_MAX=1g',
      'NEO4J_PAGECACHE=256m',
    ];
    return new Promise((resolve, reject) => {
      const child = spawn('env', [...vars, join(ROOT, 'scripts', `${service}.sh`), action], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0
          ? resolve()
          : reject(new Error(`${service}.sh ${action} exited ${code}:\n${stderr.slice(-2000)}`)),
      );
    });
  }

  async start(): Promise<void> {
    await this.stop(); // a run that died may have left its processes (pid files in dir)
    rmSync(this.dir, { recursive: true, force: true });
    await this.script('redis', 'start');
    await this.script('neo4j', 'start');
  }

  startNeo4j = () => this.script('neo4j', 'start');
  stopNeo4j = () => this.script('neo4j', 'stop');
  startRedis = () => this.script('redis', 'start');
  stopRedis = () => this.script('redis', 'stop');

  async stop(): Promise<void> {
    await Promise.allSettled([this.stopRedis(), this.stopNeo4j()]);
  }
}
