/**
 * Builds the web viewer (web/src) into web/dist with esbuild: one script, one
 * stylesheet and index.html, everything bundled (React, React Flow, elkjs, the
 * React Flow stylesheet), so the page loads nothing from outside the service.
 *   npx tsx web/build.ts            (make web; make run/test/bench run it)
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

export const WEB_ROOT = __dirname;
export const WEB_DIST = join(__dirname, 'dist');

/**
 * Builds into a fresh directory beside web/dist, then renames each file into place
 * (atomic per file): a service running from web/dist never serves a half-written file.
 */
export async function buildWeb(): Promise<void> {
  mkdirSync(WEB_DIST, { recursive: true });
  const staging = mkdtempSync(join(WEB_ROOT, '.dist-'));
  try {
    await build({
      entryPoints: { app: join(WEB_ROOT, 'src', 'main.tsx') },
      outdir: staging,
      bundle: true,
      minify: true,
      sourcemap: false,
      format: 'iife',
      target: ['es2022'],
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"production"' },
      legalComments: 'none',
      logLevel: 'warning',
    });
    copyFileSync(join(WEB_ROOT, 'src', 'index.html'), join(staging, 'index.html'));
    for (const file of readdirSync(staging)) renameSync(join(staging, file), join(WEB_DIST, file));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (require.main === module) {
  buildWeb().then(
    () => console.log(`web viewer built into ${WEB_DIST}`),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
