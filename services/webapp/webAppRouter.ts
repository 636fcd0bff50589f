/**
 * GET /app: the read-only web viewer, a static single-page app built from web/src
 * into web/dist by web/build.ts (esbuild). Served beside the API without
 * credentials (the page itself holds none; it asks for a key and sends it as the
 * bearer header). Everything it loads comes from this service: the
 * Content-Security-Policy allows only 'self', with no inline script, no eval and
 * no inline style element.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router } from 'express';

export const WEB_APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** web/dist beside services/ (source tree) or dist/web/dist beside dist/services/ (image). */
export function webDistDir(): string {
  return join(__dirname, '..', '..', 'web', 'dist');
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Viewer not built</title></head>
<body><p>The web viewer is not built: run <code>make web</code> (make run and make test build it).</p></body></html>`;

export function webAppRouter(dir = webDistDir()): Router {
  const router = Router();
  const indexPath = join(dir, 'index.html');
  const security = (res: express.Response) =>
    res.set({
      'Content-Security-Policy': WEB_APP_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
  router.get(['/app', '/app/'], (_req, res) => {
    security(res).set('Cache-Control', 'no-cache');
    if (!existsSync(indexPath)) return res.status(503).type('html').send(NOT_BUILT);
    return res.status(200).type('html').send(readFileSync(indexPath, 'utf8'));
  });
  const assets = express.static(dir, { index: false, maxAge: 0, fallthrough: true });
  router.use('/app/assets', (req, res, next) => {
    security(res);
    return assets(req, res, next);
  });
  return router;
}
