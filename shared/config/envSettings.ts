/**
 * Readers of single settings from the environment, for loadConfig (config.ts): each
 * returns the value (or its fallback when unset) and adds what is wrong with it to
 * `problems`, so that every problem is reported at once.
 */
import { SERVICE_NAMES, ServiceName } from './serviceNames';

export type Env = Record<string, string | undefined>;

export interface RedisNode {
  host: string;
  port: number;
}

/** A Neo4j URI the driver routes through a cluster (neo4j://, neo4j+s://). */
export function isRoutingUri(uri: string): boolean {
  return /^neo4j(\+s)?:/i.test(uri);
}

export function intSetting(
  env: Env,
  name: string,
  fallback: number,
  min: number,
  problems: string[],
  max = Number.MAX_SAFE_INTEGER,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) {
    problems.push(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
    return fallback;
  }
  const value = Number(raw.trim());
  if (value < min) problems.push(`${name} must be >= ${min}, got ${value}`);
  if (value > max) problems.push(`${name} must be <= ${max}, got ${value}`);
  return value;
}

/** `true` or `false` (empty or unset: `fallback`); anything else is a problem. */
export function boolSetting(
  env: Env,
  name: string,
  fallback: boolean,
  problems: string[],
): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  problems.push(`${name} must be true or false, got ${JSON.stringify(env[name])}`);
  return fallback;
}

export function urlSetting(
  env: Env,
  name: string,
  fallback: string,
  schemes: string[],
  problems: string[],
): string {
  const value = env[name] && env[name] !== '' ? (env[name] as string) : fallback;
  try {
    const url = new URL(value);
    if (!schemes.includes(url.protocol.replace(/:$/, ''))) {
      problems.push(`${name} must use one of ${schemes.join(', ')}, got ${JSON.stringify(value)}`);
    }
  } catch {
    problems.push(`${name} is not a URL: ${JSON.stringify(value)}`);
  }
  return value;
}

export function redisClusterSetting(env: Env, problems: string[]): RedisNode[] | undefined {
  const raw = env.REDIS_CLUSTER_NODES;
  if (raw === undefined || raw.trim() === '') return undefined;
  const nodes: RedisNode[] = [];
  for (const part of raw.split(',').map((p) => p.trim())) {
    const match = /^([A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]):(\d{1,5})$/.exec(part);
    const port = match ? Number(match[2]) : 0;
    if (!match || port < 1 || port > 65535) {
      problems.push(`REDIS_CLUSTER_NODES needs host:port entries, got ${JSON.stringify(part)}`);
      continue;
    }
    nodes.push({ host: match[1].replace(/^\[|\]$/g, ''), port });
  }
  return nodes;
}

/**
 * SERVICE_URLS of separate-process mode: `name=url` per service, a bare URL after it
 * adding one more process of the same service (called in turn).
 */
export function serviceUrlsSetting(
  env: Env,
  problems: string[],
): Record<ServiceName, string[]> | undefined {
  const raw = env.SERVICE_URLS;
  if (raw === undefined || raw.trim() === '') return undefined;
  const urls: Partial<Record<ServiceName, string[]>> = {};
  let previous: ServiceName | undefined;
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    // `name=url`, or a bare URL: one more process of the service named before it
    const named = /^[a-z][a-z-]*=/.test(part);
    const [name, url] = named ? part.split(/=(.*)/s, 2) : [previous ?? '', part];
    if (!(SERVICE_NAMES as readonly string[]).includes(name)) {
      problems.push(
        named
          ? `SERVICE_URLS names an unknown service ${JSON.stringify(name)}`
          : `SERVICE_URLS: ${JSON.stringify(part)} follows no service name`,
      );
      continue;
    }
    const scheme = (() => {
      try {
        return new URL(url ?? '').protocol;
      } catch {
        return '';
      }
    })();
    if (scheme !== 'http:' && scheme !== 'https:') {
      problems.push(`SERVICE_URLS: ${name} needs an http(s) URL, got ${JSON.stringify(url ?? '')}`);
    }
    previous = name as ServiceName;
    if (named && urls[previous]) problems.push(`SERVICE_URLS names ${name} twice`);
    urls[previous] = [...(named ? [] : (urls[previous] ?? [])), url];
  }
  const missing = SERVICE_NAMES.filter((name) => !urls[name]);
  if (missing.length > 0) problems.push(`SERVICE_URLS lacks ${missing.join(', ')}`);
  return urls as Record<ServiceName, string[]>;
}

/**
 * A list of web origins (`scheme://host[:port]`, comma-separated; `*` for any), each
 * kept in the form a browser sends in `Origin` (lower-case host, no default port).
 */
export function originsSetting(env: Env, name: string, problems: string[]): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  const origins: string[] = [];
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    if (part === '*') {
      origins.push(part);
      continue;
    }
    let url: URL | undefined;
    try {
      url = new URL(part);
    } catch {
      url = undefined;
    }
    const bare = url && url.pathname === '/' && !url.search && !url.hash && !url.username;
    if (!url || !bare || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      problems.push(
        `${name} needs http(s) origins like https://host[:port], got ${JSON.stringify(part)}`,
      );
      continue;
    }
    origins.push(url.origin);
  }
  return origins;
}
