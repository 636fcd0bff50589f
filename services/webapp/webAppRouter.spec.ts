import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import express from 'express';
import { WEB_APP_CSP, webAppRouter } from './webAppRouter';

async function serve(dir: string) {
  const app = express().use(webAppRouter(dir));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('webAppRouter', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gds-web-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('serves index.html at /app and the bundle under /app/assets, each with the CSP', async () => {
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
    writeFileSync(join(dir, 'app.js'), 'console.log(1)');
    const s = await serve(dir);
    try {
      for (const path of ['/app', '/app/']) {
        const page = await fetch(`${s.base}${path}`);
        expect(page.status).to.equal(200);
        expect(page.headers.get('content-security-policy')).to.equal(WEB_APP_CSP);
        expect(await page.text()).to.contain('<title>x</title>');
      }
      const script = await fetch(`${s.base}/app/assets/app.js`);
      expect(script.status).to.equal(200);
      expect(script.headers.get('content-type')).to.contain('javascript');
      expect(script.headers.get('content-security-policy')).to.equal(WEB_APP_CSP);
      expect((await fetch(`${s.base}/app/assets/missing.js`)).status).to.equal(404);
    } finally {
      await s.close();
    }
  });

  it('answers 503 with how to build it when the bundle is missing', async () => {
    const s = await serve(dir);
    try {
      const page = await fetch(`${s.base}/app`);
      expect(page.status).to.equal(503);
      expect(await page.text()).to.contain('make web');
    } finally {
      await s.close();
    }
  });

  it('allows nothing but this origin: no inline script, no eval, no outside host', () => {
    expect(WEB_APP_CSP).to.contain("default-src 'none'");
    expect(WEB_APP_CSP).to.contain("script-src 'self'");
    expect(WEB_APP_CSP).not.to.match(/unsafe|https?:|\*/);
  });
});
