/**
 * The recorder's own webhook target: an HTTP server on loopback that answers every
 * delivery 200 and checks its signature as a CI receiver would (verifyDelivery over the
 * raw body and X-Graph-Timestamp), so the delivery log the session records is one of
 * deliveries that really arrived signed. The service must allow a loopback target
 * (WEBHOOK_ALLOW_PRIVATE_TARGETS=true; scripts/record-examples.sh sets it).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyDelivery } from '../../services/webhooks';

/** One delivery as the receiver saw it. */
export interface ReceivedDelivery {
  seq: number;
  kind: string;
  verified: boolean;
}

export interface WebhookReceiver {
  /** Where deliveries are posted. */
  url: string;
  received: ReceivedDelivery[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(secret: string, port = 0): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const verified = verifyDelivery(
        secret,
        String(req.headers['x-graph-timestamp']),
        body,
        String(req.headers['x-graph-signature']),
      );
      const event = JSON.parse(body) as { seq: number; kind: string };
      received.push({ seq: event.seq, kind: event.kind, verified });
      res.statusCode = verified ? 200 : 401;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/hooks/graph`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
