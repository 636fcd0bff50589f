/**
 * The settings of the service's trust boundaries as deployed, for loadConfig (config.ts):
 * which environment it runs in (GDS_ENV), which proxies' X-Forwarded-For it believes
 * (TRUSTED_PROXIES), how long its HTTP connections stay open idle
 * (HTTP_KEEP_ALIVE_TIMEOUT_MS, HTTP_HEADERS_TIMEOUT_MS), the Redis credentials
 * (REDIS_USERNAME, REDIS_PASSWORD), and the rule that outside development no secret is
 * one this repository publishes (a compose default, the Kubernetes example Secret) or a
 * product's default: anyone can read those, so a deployment that forgot to set its own
 * would sign identities and guard its stores with a public key.
 */
import { isIP } from 'node:net';
import { Env, intSetting } from './envSettings';

/**
 * `development`: only where GDS_ENV=development says so (the make targets and scripts
 * that run a local stack, tests included); anything else is a deployment.
 */
export type Environment = 'development' | 'production';

export interface DeploymentSettings {
  environment: Environment;
  /**
   * The proxies (addresses, CIDRs, or loopback / linklocal / uniquelocal) whose
   * X-Forwarded-For the gateway believes when it works out a caller's address
   * (TRUSTED_PROXIES; loopback always). Behind an ingress, its addresses must be
   * listed: otherwise every caller has the ingress's address and shares its budgets.
   */
  trustedProxies: string[];
  /** The HTTP server's idle keep-alive and header timeouts (every process that listens). */
  http: { keepAliveTimeoutMs: number; headersTimeoutMs: number };
}

/** Names express's `trust proxy` understands besides addresses and CIDRs. */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.includes(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

export function deploymentSettings(env: Env, problems: string[]): DeploymentSettings {
  const environment = env.GDS_ENV === undefined || env.GDS_ENV === '' ? 'production' : env.GDS_ENV;
  if (environment !== 'development' && environment !== 'production')
    problems.push(`GDS_ENV must be development or production, got ${JSON.stringify(environment)}`);
  // loopback always: the gateway's own /mcp tools call it there, forwarding their caller's address
  const listed = (env.TRUSTED_PROXIES ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const trustedProxies = ['loopback', ...listed.filter((entry) => entry !== 'loopback')];
  for (const entry of trustedProxies.filter((e) => !isProxyEntry(e)))
    problems.push(
      `TRUSTED_PROXIES needs addresses, CIDRs or ${PROXY_NAMES.join('/')}, got ${JSON.stringify(entry)}`,
    );
  // Above the 60 s idle timeout common to load balancers: the one in front must close
  // an idle connection first, or it reuses one the service has just closed (a 502).
  const keepAliveTimeoutMs = intSetting(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, 1000, problems);
  const headersTimeoutMs = intSetting(env, 'HTTP_HEADERS_TIMEOUT_MS', 66_000, 1000, problems);
  if (headersTimeoutMs <= keepAliveTimeoutMs)
    problems.push('HTTP_HEADERS_TIMEOUT_MS must be above HTTP_KEEP_ALIVE_TIMEOUT_MS');
  return {
    environment: environment === 'development' ? 'development' : 'production',
    trustedProxies,
    http: { keepAliveTimeoutMs, headersTimeoutMs },
  };
}

/**
 * REDIS_URL with REDIS_USERNAME and REDIS_PASSWORD, when set, in place of its own
 * credentials (a Secret can then hold the password while REDIS_URL stays in plain
 * configuration). A URL that does not parse is returned as it is (urlSetting reports it).
 */
export function redisUrlWithCredentials(redisUrl: string, env: Env): string {
  const username = env.REDIS_USERNAME || undefined;
  const password = env.REDIS_PASSWORD || undefined;
  if (username === undefined && password === undefined) return redisUrl;
  try {
    const url = new URL(redisUrl);
    if (username !== undefined) url.username = encodeURIComponent(username);
    if (password !== undefined) url.password = encodeURIComponent(password);
    return url.toString();
  } catch {
    return redisUrl;
  }
}

/**
 * Secrets anyone can read: the products' defaults, the values this repository's compose
 * file and example Secret ship, and any value that says it is to be changed.
 */
const PUBLISHED_SECRETS = new Set([
  'neo4j',
  'password',
  'redis',
  'secret',
  'graph-design-dev',
  'compose-internal-secret-change-me-0123456789',
]);

export function isPublishedSecret(value: string): boolean {
  return PUBLISHED_SECRETS.has(value.toLowerCase()) || /change[-_ ]?me/i.test(value);
}

/** What a deployment must not run with: the secrets it uses, by variable. */
export interface DeployedSecrets {
  environment: Environment;
  neo4jPassword: string | undefined;
  redisUrl: string;
  internalSecret: string | undefined;
  metricsToken: string | undefined;
}

/**
 * Outside development: NEO4J_PASSWORD and the Redis password must be set, and neither
 * they nor INTERNAL_SECRET or METRICS_TOKEN (when set) may be a published secret.
 */
export function deployedSecretProblems(secrets: DeployedSecrets): string[] {
  if (secrets.environment === 'development') return [];
  const redisPassword = (() => {
    try {
      return decodeURIComponent(new URL(secrets.redisUrl).password) || undefined;
    } catch {
      return undefined;
    }
  })();
  const problems: string[] = [];
  const required: [string, string | undefined][] = [
    ['NEO4J_PASSWORD', secrets.neo4jPassword],
    ['REDIS_PASSWORD (or a password in REDIS_URL)', redisPassword],
  ];
  for (const [name, value] of required)
    if (value === undefined) problems.push(`${name} must be set outside development (GDS_ENV)`);
  const used: [string, string | undefined][] = [
    ...required,
    ['INTERNAL_SECRET', secrets.internalSecret],
    ['METRICS_TOKEN', secrets.metricsToken],
  ];
  for (const [name, value] of used)
    if (value !== undefined && isPublishedSecret(value))
      problems.push(
        `${name} is a published example or default value: set a secret of your own ` +
          '(GDS_ENV=development accepts it on a local stack)',
      );
  return problems;
}
