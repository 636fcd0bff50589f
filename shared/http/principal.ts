/** The authenticated caller: a user acting through one API key. */
export type Scope = 'graph:write' | 'project:delete' | 'decisions:read';

export const KNOWN_SCOPES: readonly Scope[] = ['graph:write', 'project:delete', 'decisions:read'];

export interface Principal {
  userId: string;
  keyId: string;
  scopes: ReadonlySet<string>;
  /** The key's project allowlist; null means every project the user has a role on. */
  projectAllowlist: ReadonlySet<string> | null;
}

export function hasScope(principal: Principal, scope: Scope): boolean {
  return principal.scopes.has(scope);
}
