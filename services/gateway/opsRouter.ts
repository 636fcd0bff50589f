/**
 * Routes beside the API (metrics, the OpenAPI document, docs, web viewer), mounted before
 * the OpenAPI router, so they need no credentials and count against no rate limit:
 * - GET /metrics: Prometheus text exposition (declared in the OpenAPI document), for
 *   the scraper only: with METRICS_TOKEN it needs `Authorization: Bearer <token>`,
 *   without one it answers only direct loopback connections; anyone else gets the
 *   404 of a path that does not exist;
 * - GET /openapi.yaml and /openapi.json: the OpenAPI document as served;
 * - GET /docs: the document rendered by Swagger UI, served from the npm package
 *   swagger-ui-dist; the page loads nothing from outside this service (its
 *   Content-Security-Policy allows only 'self');
 * - GET /app: the read-only web viewer (services/webapp).
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import express, { Request, Router } from 'express';
import { NotFoundError } from '../../shared/errors/domainErrors';
import { parse } from 'yaml';
import { webAppRouter } from '../webapp';
import type { ServiceMetrics } from '../platform';

const ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png'];

const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Graph Design Service API</title>
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
    <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

// No validator badge (it would call an outside service), operation ids shown.
const DOCS_INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  displayOperationId: true,
  docExpansion: 'list',
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
});
`;

export function swaggerAssetsDir(): string {
  return dirname(require.resolve('swagger-ui-dist/package.json'));
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Whether `req` may read the metrics (see the file comment). */
export function mayScrape(req: Request, token: string | undefined): boolean {
  if (token === undefined) {
    return LOOPBACK.has(req.socket.remoteAddress ?? '') && !req.headers['x-forwarded-for'];
  }
  const given = Buffer.from(req.header('authorization') ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function opsRouter(options: {
  definitionPath: string;
  metrics: ServiceMetrics;
  metricsToken?: string;
}): Router {
  const yamlText = readFileSync(options.definitionPath, 'utf8');
  const jsonText = JSON.stringify(parse(yamlText));
  const router = Router();

  router.get('/metrics', (req, res, next) => {
    req.gateway.operationId = 'getMetrics';
    if (!mayScrape(req, options.metricsToken)) return next(new NotFoundError('route'));
    options.metrics.render().then((text) => {
      res.status(200).type(options.metrics.contentType()).send(text);
    }, next);
  });
  router.get('/openapi.yaml', (_req, res) => {
    res.status(200).type('application/yaml; charset=utf-8').send(yamlText);
  });
  router.get('/openapi.json', (_req, res) => {
    res.status(200).type('application/json').send(jsonText);
  });
  router.get('/docs', (_req, res) => {
    res.status(200).set('Content-Security-Policy', DOCS_CSP).type('html').send(DOCS_PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.status(200).type('application/javascript').send(DOCS_INIT);
  });
  const assets = express.static(swaggerAssetsDir(), { index: false, maxAge: '1h' });
  router.use('/docs/assets', (req, res, next) => {
    if (!ASSETS.includes(req.path.replace(/^\//, ''))) return next();
    return assets(req, res, next);
  });
  router.use(webAppRouter());
  return router;
}
