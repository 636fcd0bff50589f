/**
 * Turns an Authorization header into a Principal (§5). Missing, malformed,
 * unknown and revoked credentials all raise the same UnauthenticatedError (§5.5).
 */
import { UnauthenticatedError } from '../../shared/errors/domainErrors';
import type { Principal } from '../../shared/http/principal';
import type { Executor } from '../../shared/neo4j/executor';
import { hashToken, looksLikeToken } from './keyTokens';
import { findActiveKeyByHash } from './store/identityQueries';

interface KeyRow extends Record<string, unknown> {
  keyId: string;
  userId: string;
  scopes: string[];
  projects: string[] | null;
}

export class Authenticator {
  constructor(private readonly options: { executor: Executor }) {}

  /** Extracts the bearer token, or null when the header is missing or malformed. */
  static bearerToken(header: string | undefined): string | null {
    if (!header) return null;
    const match = /^Bearer ([\x21-\x7e]+)$/i.exec(header.trim());
    return match ? match[1] : null;
  }

  async authenticate(header: string | undefined): Promise<Principal> {
    const token = Authenticator.bearerToken(header);
    if (!token || !looksLikeToken(token)) throw new UnauthenticatedError();
    const [row] = await this.options.executor.read<KeyRow>(findActiveKeyByHash, {
      hash: hashToken(token),
    });
    if (!row) throw new UnauthenticatedError();
    return {
      userId: row.userId,
      keyId: row.keyId,
      scopes: new Set(row.scopes),
      projectAllowlist: row.projects ? new Set(row.projects) : null,
    };
  }
}
