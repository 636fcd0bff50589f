/**
 * The express application every process that answers the API starts from: the gateway
 * and, in separate-process mode, each service's internal API. Answers carry no
 * X-Powered-By and no ETag: the API's reads name their version instead, and express
 * would hash every body it sends (a whole graph file included) for a header the
 * OpenAPI document does not give clients.
 */
import express, { Express } from 'express';

export function jsonApiApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  return app;
}
