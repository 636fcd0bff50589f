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
  return graphctlWith({}, ...args);
}

/** graphctl with settings of its own (`env` over the test process's environment). */
export async function graphctlWith(
  env: Record<string, string>,
  ...args: string[]
): Promise<CliOutcome> {
  try {
    // env(1) runs it with these settings over the environment it inherits
    const settings = Object.entries(env).map(([name, value]) => `${name}=${value}`);
    const { stdout, stderr } = await run(
      'env',
      [...settings, 'npm', 'run', '-s', 'graphctl', '--', ...args],
      { cwd: ROOT },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as CliOutcome;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
