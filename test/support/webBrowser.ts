/**
 * Headless Debian chromium driven by playwright-core for the web viewer test and
 * bench: the launch (same flags as the docs-page test), a page that records every
 * request URL and aborts any that leaves the service, the key entered through the
 * viewer's own form, axe-core run in the page, and screenshots under
 * .run/screenshots/.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = join(__dirname, '..', '..', '.run', 'screenshots');

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} missing: run scripts/ensure-deps.sh`);
  const profile = mkdtempSync(join(tmpdir(), 'gds-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface TrackedPage {
  page: Page;
  /** Every request URL the page made. */
  urls: string[];
  /** Requests to anywhere but the service (aborted). */
  outside: string[];
  /** Uncaught page errors and console errors. */
  errors: string[];
}

export async function trackedPage(browser: Browser, origin: string): Promise<TrackedPage> {
  const page = await browser.context.newPage();
  const tracked: TrackedPage = { page, urls: [], outside: [], errors: [] };
  await page.route('**/*', (route) => {
    const url = route.request().url();
    tracked.urls.push(url);
    if (url.startsWith(`${origin}/`) || url.startsWith('data:')) return route.continue();
    tracked.outside.push(url);
    return route.abort();
  });
  page.on('pageerror', (error) => tracked.errors.push(error.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') tracked.errors.push(msg.text());
  });
  return tracked;
}

/** Opens /app and pastes `token` into the key form (the viewer keeps it in sessionStorage). */
export async function openWithKey(page: Page, serviceUrl: string, token: string): Promise<void> {
  await page.goto(`${serviceUrl}/app`);
  await page.fill('#api-key', token);
  await page.click('button[type=submit]');
}

/** Opens a hash route of the viewer in the same tab (the key stays in its sessionStorage). */
export async function go(page: Page, serviceUrl: string, hash: string): Promise<void> {
  await page.goto(`${serviceUrl}/app${hash}`);
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
}

/** axe-core on the page as it is; the violations of impact serious or critical. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // evaluated through the devtools protocol, which the page's CSP does not govern
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })
      .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length })))`)) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The canvas element of graph node `id` (React Flow's test id). */
export const nodeSelector = (id: string): string => `[data-testid="rf__node-${id}"]`;

/** The ids of the nodes whose card carries overlay mark `mark` (diff-added, conflict...), sorted. */
export async function markedNodes(page: Page, mark: string): Promise<string[]> {
  return (
    await page.$$eval(`.card.${mark}`, (els) =>
      els.map((e) => e.getAttribute('data-node-id') ?? ''),
    )
  ).sort();
}

/** Waits until the graph canvas has laid out what it read. */
export async function graphReady(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="canvas"][data-ready="true"]', { timeout: 60_000 });
}
