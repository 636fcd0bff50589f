/** Runs the operator CLI as an operator would (`npm run -s graphctl -- ...`). */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

export async function graphctl(...args: string[]): Promise<CliOutcome> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '-s', 'graphctl', '--', ...args], {
      cwd: ROOT,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as CliOutcome;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
