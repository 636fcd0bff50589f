/**
 * Configuration, read from the environment and validated once. Nothing else in the code base reads
 * process.env: every component receives the parts of Config it needs through its options object.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceName } from './serviceNames';
import {
  boolSetting,
  Env,
  intSetting,
  isRoutingUri,
  originsSetting,
  redisClusterSetting,
  RedisNode,
  serviceUrlsSetting,
  urlSetting,
} from './envSettings';
import {
  deployedSecretProblems,
  DeploymentSettings,
  deploymentSettings,
  redisUrlWithCredentials,
} from './deploymentSettings';
import type { UnstableParamsPolicy } from '../neo4j/paramShapes';
import { telemetrySettings, TelemetrySettings } from './telemetrySettings';

/**
 * Trust boundaries as deployed (deploymentSettings.ts): `environment` (GDS_ENV),
 * `trustedProxies` (TRUSTED_PROXIES) and `http` (the HTTP server's idle timeouts).
 */
export interface Config extends DeploymentSettings {
  port: number;
  host: string;
  neo4j: {
    uri: string;
    user: string;
    password: string;
    database: string | undefined;
    /** Server-side limit on one transaction of the API (NEO4J_TX_TIMEOUT_MS; 0: none). */
    transactionTimeoutMs: number;
    /**
     * How long a request waits for the database to reach the X-Graph-Bookmark it carries
     * before answering 503 (GRAPH_BOOKMARK_WAIT_MS).
     */
    bookmarkWaitMs: number;
    /**
     * A pinned statement sent a parameter whose type varies from call to call
     * (shared/neo4j/paramShapes.ts): refused in development, where the tests run, so such
     * a call is found; a warning in production, where it costs only a plan.
     */
    unstableParams: UnstableParamsPolicy;
    /**
     * Whether a process that serves the scoped reads or batches plans their largest
     * statements as it starts, before the first request needs them (NEO4J_WARM_PLANS,
     * default true; services/graph/planWarmup.ts).
     */
    warmPlans: boolean;
  };
  redisUrl: string;
  /**
   * Redis Cluster seed nodes (REDIS_CLUSTER_NODES, `host:port,...`): when set, every
   * Redis user (rate limits, idempotency keys, auth-cache epoch, queues) talks to the
   * cluster instead of REDIS_URL; REDIS_URL then only lends its credentials and TLS.
   */
  redisClusterNodes: RedisNode[] | undefined;
  limits: {
    projectLimit: number;
    branchLimit: number;
    rateLimitReadPerMin: number;
    rateLimitWritePerMin: number;
    rateLimitAnonPerMin: number;
    maxBodyBytes: number;
    maxDeltasPerBatch: number;
    /** Bytes one batch may add to a branch's change trail (its deltas as recorded). */
    maxBatchBytes: number;
    /** Findings one validate (or each list of a merge preview) returns; more sets `truncated`. */
    maxFindings: number;
    /** Deepest containment: a top-level node is at depth 1. */
    maxNestingDepth: number;
    /** Requests of one key the gateway serves at once; more answer 429 (per process). */
    maxInFlightPerKey: number;
  };
  /** Per-branch quotas: what one branch (main included) may hold. */
  quotas: {
    maxNodes: number;
    maxWires: number;
    /** Graph content and change trail, as recorded (see branchUsage.ts). */
    maxStoredBytes: number;
  };
  /** How long history stays readable (version reads, diffs, revert) before the purge worker
   * removes records no readable version can see. */
  history: {
    /** Versions published within this many days stay readable (HISTORY_RETENTION_DAYS). */
    retentionDays: number;
    /** Main's newest versions kept whatever their age (HISTORY_MIN_MAIN_VERSIONS). */
    minMainVersions: number;
  };
  /** Merges and imports larger than one transaction should hold are written in chunks
   * under a version no reader sees, then published at once. */
  staging: {
    /** A merge writing more records than this, or an import of more deltas, is staged
     * (STAGE_RECORDS); a staged merge writes this many records per transaction. */
    records: number;
    /** Records per transaction of a staged import (STAGE_CHUNK). */
    chunk: number;
    /** Transactions a staged import writes side by side (STAGE_WRITERS). */
    writers: number;
  };
  idempotencyTtlSeconds: number;
  /**
   * How long the gateway remembers a key's latest write bookmark for its reads (0: off;
   * off by default with a direct bolt:// NEO4J_URI, where one server serves every read).
   */
  bookmarkTtlSeconds: number;
  /** How long a process keeps an authenticated key before looking it up again (0: never). */
  authCacheTtlSeconds: number;
  /** Background jobs (BullMQ queues `decisions` and `purge`, services/worker). */
  jobs: {
    /** How often the worker looks for deleted projects and discarded branches left unpurged. */
    purgeSweepIntervalSeconds: number;
    /** Attempts per job for transient failures, with exponential backoff from jobBackoffMs. */
    jobAttempts: number;
    jobBackoffMs: number;
  };
  /**
   * Separate-process mode: the URL of each service process, from SERVICE_URLS
   * (`projects=http://...,branches=...`); undefined runs in process.
   */
  serviceUrls: Record<ServiceName, string> | undefined;
  /**
   * Every URL of each service: SERVICE_URLS may list several processes of one
   * service (`graph-read=http://a,http://b`, URLs after the first without a name),
   * which the gateway calls in turn. serviceUrls holds the first of each.
   */
  serviceUrlPools: Record<ServiceName, string[]> | undefined;
  /** HMAC key that signs the caller's identity between gateway and services (INTERNAL_SECRET). */
  internalSecret: string | undefined;
  /**
   * Bearer token that GET /metrics requires (METRICS_TOKEN); without one, /metrics
   * answers only direct loopback connections (a Prometheus agent on the same host).
   */
  metricsToken: string | undefined;
  /** Graceful shutdown: how long in-flight requests may take to finish. */
  shutdownTimeoutSeconds: number;
  logLevel: string;
  /** Distributed traces (OTEL_* variables, telemetrySettings.ts); undefined: off. */
  telemetry: TelemetrySettings | undefined;
  serviceVersion: string;
  /** The API key `graphctl mcp` sends when --token is not given (GDS_TOKEN). */
  clientToken: string | undefined;
  /** A project's event feed as Server-Sent Events (streamProjectEvents). */
  feed: {
    /** A comment line is sent after this long without anything else (FEED_HEARTBEAT_MS). */
    heartbeatMs: number;
    /**
     * How often a project's feed is read for its open streams (FEED_POLL_MS, default 250).
     * One poll per project and process serves all of them (services/feed/feedPolls.ts), so
     * its cost is two statements per poll whatever the number of streams: at 250 ms, 8 per
     * second for each project followed in a process, against one per stream per second
     * when each stream polled every 1000 ms. A delivery waits for the next poll: half of it
     * on average, all of it at most.
     */
    pollMs: number;
    /** A stream ends after this long; the client resumes with Last-Event-ID (FEED_STREAM_MAX_SECONDS). */
    streamMaxSeconds: number;
    /** Open streams one key may hold on one process (FEED_STREAMS_PER_KEY); more answer 429. */
    streamsPerKey: number;
  };
  /** Webhook deliveries (services/webhooks, run by the worker). */
  webhooks: {
    /**
     * Deliver to private, loopback, link-local and unique-local addresses too
     * (WEBHOOK_ALLOW_PRIVATE_TARGETS, false by default: such targets are refused, so a
     * project owner cannot make the service call into its own network).
     */
    allowPrivateTargets: boolean;
    /** Attempts per delivery (WEBHOOK_ATTEMPTS), with exponential backoff from WEBHOOK_BACKOFF_MS. */
    attempts: number;
    backoffMs: number;
    /** How long one attempt may take (WEBHOOK_TIMEOUT_MS). */
    timeoutMs: number;
    /**
     * How often the worker turns new feed events into deliveries (WEBHOOK_DISPATCH_MS,
     * default 1000: one write transaction per webhook each time; it followed FEED_POLL_MS
     * until the streams' shared poll made a shorter FEED_POLL_MS affordable for them).
     */
    dispatchMs: number;
  };
  /** The MCP endpoint (/mcp) on the gateway. */
  mcp: {
    /**
     * Web origins besides the loopback ones (always allowed) whose pages may call /mcp
     * (MCP_ALLOWED_ORIGINS, comma-separated, `*` for any): a request whose Origin is
     * present and not allowed is refused 403 (DNS-rebinding protection).
     */
    allowedOrigins: string[];
  };
}

/** What a Redis client factory needs: the single server's URL, or the cluster's seeds. */
export type RedisSettings = Pick<Config, 'redisUrl' | 'redisClusterNodes'>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The INTERNAL_SECRET rule: the gateway and the service processes of separate-process
 * mode sign and check the caller's identity with it (HMAC-SHA256), so it must be
 * long enough not to be guessed: at least 32 characters.
 */
function internalSecretProblems(secret: string | undefined, neededBy: string): string[] {
  return (secret ?? '').length >= 32
    ? []
    : [`INTERNAL_SECRET of at least 32 characters is needed ${neededBy}`];
}

/** Who needs INTERNAL_SECRET, as the problem names them. */
export const SECRET_NEEDED_BY = {
  gateway: 'with SERVICE_URLS',
  serviceProcess: 'by a service process',
} as const;

/**
 * The INTERNAL_SECRET of a process of separate-process mode (the gateway with
 * SERVICE_URLS, or a service process); a ConfigError when it breaks the rule.
 */
export function requiredInternalSecret(
  config: Config,
  neededBy: (typeof SECRET_NEEDED_BY)[keyof typeof SECRET_NEEDED_BY],
): string {
  const problems = internalSecretProblems(config.internalSecret, neededBy);
  if (problems.length > 0) throw new ConfigError(problems);
  return config.internalSecret as string;
}

/** The service release: the root package.json version. */
export function readServiceVersion(): string {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/**
 * Reads every setting, collects every problem, and throws them all at once.
 * `requireInternalSecret`: a service process of separate-process mode, which
 * trusts only identities signed with INTERNAL_SECRET.
 */
export function loadConfig(
  env: Env = process.env,
  options: { requireInternalSecret?: boolean } = {},
): Config {
  const problems: string[] = [];
  if (options.requireInternalSecret)
    problems.push(...internalSecretProblems(env.INTERNAL_SECRET, SECRET_NEEDED_BY.serviceProcess));
  const neo4jUri = urlSetting(
    env,
    'NEO4J_URI',
    'bolt://127.0.0.1:7687',
    ['bolt', 'neo4j', 'bolt+s', 'neo4j+s'],
    problems,
  );
  const deployment = deploymentSettings(env, problems);
  const config: Config = {
    ...deployment,
    port: intSetting(env, 'PORT', 8080, 0, problems),
    host: env.HOST && env.HOST !== '' ? env.HOST : '127.0.0.1',
    neo4j: {
      uri: neo4jUri,
      user: env.NEO4J_USER || 'neo4j',
      password: env.NEO4J_PASSWORD || 'neo4j',
      database: env.NEO4J_DATABASE || undefined,
      transactionTimeoutMs: intSetting(env, 'NEO4J_TX_TIMEOUT_MS', 30_000, 0, problems),
      bookmarkWaitMs: intSetting(env, 'GRAPH_BOOKMARK_WAIT_MS', 5_000, 1, problems),
      unstableParams: deployment.environment === 'development' ? 'refuse' : 'warn',
      warmPlans: boolSetting(env, 'NEO4J_WARM_PLANS', true, problems),
    },
    redisUrl: redisUrlWithCredentials(
      urlSetting(env, 'REDIS_URL', 'redis://127.0.0.1:6379', ['redis', 'rediss'], problems),
      env,
    ),
    redisClusterNodes: redisClusterSetting(env, problems),
    limits: {
      projectLimit: intSetting(env, 'PROJECT_LIMIT', 100, 1, problems),
      branchLimit: intSetting(env, 'BRANCH_LIMIT', 25, 1, problems),
      rateLimitReadPerMin: intSetting(env, 'RATE_LIMIT_READ_PER_MIN', 1200, 1, problems),
      rateLimitWritePerMin: intSetting(env, 'RATE_LIMIT_WRITE_PER_MIN', 300, 1, problems),
      rateLimitAnonPerMin: intSetting(env, 'RATE_LIMIT_ANON_PER_MIN', 60, 1, problems),
      maxBodyBytes: 5 * 1024 * 1024,
      maxDeltasPerBatch: 1000,
      maxBatchBytes: intSetting(env, 'MAX_BATCH_BYTES', 2 * 1024 * 1024, 1024, problems),
      maxFindings: intSetting(env, 'MAX_FINDINGS', 1000, 1, problems),
      maxNestingDepth: intSetting(env, 'MAX_NESTING_DEPTH', 64, 2, problems),
      maxInFlightPerKey: intSetting(env, 'MAX_IN_FLIGHT_PER_KEY', 16, 1, problems),
    },
    quotas: {
      maxNodes: intSetting(env, 'BRANCH_MAX_NODES', 200_000, 1, problems),
      maxWires: intSetting(env, 'BRANCH_MAX_WIRES', 400_000, 1, problems),
      maxStoredBytes: intSetting(env, 'BRANCH_MAX_BYTES', 256 * 1024 * 1024, 1024, problems),
    },
    history: {
      retentionDays: intSetting(env, 'HISTORY_RETENTION_DAYS', 30, 0, problems),
      minMainVersions: intSetting(env, 'HISTORY_MIN_MAIN_VERSIONS', 20, 1, problems),
    },
    staging: {
      records: intSetting(env, 'STAGE_RECORDS', 5000, 2, problems),
      chunk: intSetting(env, 'STAGE_CHUNK', 2000, 1, problems),
      // each writer is a transaction of the import's own, and a lane of its stage
      writers: intSetting(env, 'STAGE_WRITERS', 2, 1, problems, 16),
    },
    idempotencyTtlSeconds: intSetting(env, 'IDEMPOTENCY_TTL_S', 86400, 1, problems),
    authCacheTtlSeconds: intSetting(env, 'AUTH_CACHE_TTL_S', 30, 0, problems),
    // Remembered bookmarks matter only where a read may reach another database member
    // than the write did (a routing URI); one server sees every committed write at once.
    bookmarkTtlSeconds: intSetting(
      env,
      'GRAPH_BOOKMARK_TTL_S',
      isRoutingUri(neo4jUri) ? 60 : 0,
      0,
      problems,
    ),
    jobs: {
      purgeSweepIntervalSeconds: intSetting(env, 'PURGE_SWEEP_INTERVAL_S', 60, 1, problems),
      jobAttempts: intSetting(env, 'JOB_ATTEMPTS', 8, 1, problems),
      jobBackoffMs: intSetting(env, 'JOB_BACKOFF_MS', 1000, 1, problems),
    },
    serviceUrlPools: serviceUrlsSetting(env, problems),
    serviceUrls: undefined,
    internalSecret: env.INTERNAL_SECRET || undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    shutdownTimeoutSeconds: intSetting(env, 'SHUTDOWN_TIMEOUT_S', 10, 0, problems),
    logLevel: env.LOG_LEVEL || 'info',
    telemetry: telemetrySettings(env, problems),
    serviceVersion: readServiceVersion(),
    clientToken: env.GDS_TOKEN || undefined,
    feed: {
      heartbeatMs: intSetting(env, 'FEED_HEARTBEAT_MS', 15_000, 100, problems),
      pollMs: intSetting(env, 'FEED_POLL_MS', 250, 50, problems),
      streamMaxSeconds: intSetting(env, 'FEED_STREAM_MAX_SECONDS', 50, 1, problems),
      streamsPerKey: intSetting(env, 'FEED_STREAMS_PER_KEY', 4, 1, problems),
    },
    webhooks: {
      allowPrivateTargets: boolSetting(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false, problems),
      attempts: intSetting(env, 'WEBHOOK_ATTEMPTS', 6, 1, problems),
      backoffMs: intSetting(env, 'WEBHOOK_BACKOFF_MS', 2_000, 1, problems),
      timeoutMs: intSetting(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, problems),
      dispatchMs: intSetting(env, 'WEBHOOK_DISPATCH_MS', 1_000, 50, problems),
    },
    mcp: { allowedOrigins: originsSetting(env, 'MCP_ALLOWED_ORIGINS', problems) },
  };
  if (config.metricsToken !== undefined && config.metricsToken.length < 16)
    problems.push('METRICS_TOKEN must be at least 16 characters');
  if (config.serviceUrlPools) {
    const pools = config.serviceUrlPools;
    config.serviceUrls = Object.fromEntries(
      Object.entries(pools).map(([name, list]) => [name, list[0]]),
    ) as Record<ServiceName, string>;
  }
  // the gateway of separate-process mode signs every call to the services
  if (config.serviceUrlPools)
    problems.push(...internalSecretProblems(env.INTERNAL_SECRET, SECRET_NEEDED_BY.gateway));
  problems.push(
    ...deployedSecretProblems({
      environment: config.environment,
      neo4jPassword: env.NEO4J_PASSWORD || undefined,
      redisUrl: config.redisUrl,
      internalSecret: config.internalSecret,
      metricsToken: config.metricsToken,
    }),
  );
  if (config.port > 65535) problems.push(`PORT must be <= 65535, got ${config.port}`);
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(config.logLevel))
    problems.push(`LOG_LEVEL must be one of ${levels.join(', ')}`);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** The environment with some settings replaced (tests, benchmarks, the CLI). */
export function loadConfigWith(overrides: Env): Config {
  return loadConfig({ ...process.env, ...overrides });
}
