/**
 * How a delivery is signed (and how a receiver verifies it): HMAC-SHA-256 with the
 * webhook's secret over `<timestamp>.<body>`, the timestamp in Unix seconds as sent in
 * X-Graph-Timestamp, the signature sent as `X-Graph-Signature: sha256=<hex>`. A receiver
 * recomputes it over the raw body, compares in constant time, and refuses an old
 * timestamp (replay).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Graph-Signature';
export const TIMESTAMP_HEADER = 'X-Graph-Timestamp';

export function signDelivery(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does: true when `signature` is the one of `timestamp` and `body`. */
export function verifyDelivery(
  secret: string,
  timestamp: string,
  body: string,
  signature: string,
): boolean {
  const expected = Buffer.from(signDelivery(secret, Number(timestamp), body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
