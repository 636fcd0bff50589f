/**
 * API key tokens: opaque, 256 bits of randomness, stored only as a SHA-256 hash
 * (a fast hash suffices for high-entropy secrets).
 */
import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'gds_';

export function mintToken(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Cheap shape check so garbage never reaches the database. */
export function looksLikeToken(token: string): boolean {
  return token.startsWith(PREFIX) && token.length > PREFIX.length + 20 && token.length < 200;
}
