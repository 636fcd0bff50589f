/**
 * graphctl run as the operator runs it, a process of its own: compiled, as the image runs it
 * (`node dist/tools/graphctl/main.js`), when this module is compiled too (scripts/build-bench.sh
 * puts both in .run/bench-dist, so `make bench-large` times the import users run, not the
 * development loader's transpiling); otherwise its source through tsx, from the repository's
 * root whatever the caller's working directory. Its import with the progress lines passed on,
 * and its export to a file.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const COMPILED = __filename.endsWith('.js');
const GRAPHCTL: { command: string; args: string[]; cwd: string } = COMPILED
  ? {
      command: process.execPath,
      args: [join(__dirname, '..', 'tools', 'graphctl', 'main.js')],
      cwd: process.cwd(),
    }
  : {
      command: join(__dirname, '..', 'node_modules', '.bin', 'tsx'),
      args: [join(__dirname, '..', 'tools', 'graphctl', 'main.ts')],
      cwd: join(__dirname, '..'),
    };

/** What graphctl import prints. */
export interface Imported {
  project: { id: string };
  main_branch: { id: string };
}

/** What graphctl export --out prints. */
export interface Exported {
  nodes: number;
  edges: number;
}

/**
 * Runs graphctl with `args` and answers its stdout parsed as JSON. Its stderr lines that
 * start with `progressPrefix` are progress, printed indented on stdout; other lines go to
 * stderr.
 */
function graphctl<T>(args: string[], progressPrefix: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(GRAPHCTL.command, [...GRAPHCTL.args, ...args], {
      cwd: GRAPHCTL.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const lines = err.split('\n');
      err = lines.pop() ?? '';
      for (const line of lines)
        if (line.startsWith(progressPrefix)) console.log(`  ${line}`);
        else if (line.trim() !== '') console.error(`  ${line}`);
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as T)
        : reject(new Error(`graphctl ${args[0]} exited ${code}: ${err || out}`)),
    );
  });
}

/** graphctl import of `file` for `user`, its progress lines passed on; answers its JSON. */
export const graphctlImport = (file: string, user: string): Promise<Imported> =>
  graphctl<Imported>(['import', '--file', file, '--user', user], 'import ');

/** graphctl export of branch `branchId` to the file `out`; answers what it wrote. */
export const graphctlExport = (branchId: string, out: string): Promise<Exported> =>
  graphctl<Exported>(['export', '--branch', branchId, '--out', out], 'export ');
