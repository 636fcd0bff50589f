/**
 * API key tokens: opaque, 256 bits of randomness, stored only as a SHA-256 hash
 * (a fast hash suffices for high-entropy secrets).
 */
import { hash, randomBytes } from 'node:crypto';

const PREFIX = 'gds_';

export function mintToken(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

/** SHA-256 of the token's UTF-8 bytes, hex; the one-shot hash, as it runs on every request. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** Cheap shape check so garbage never reaches the database. */
export function looksLikeToken(token: string): boolean {
  return token.startsWith(PREFIX) && token.length > PREFIX.length + 20 && token.length < 200;
}
