/** Unit tests of configuration loading: defaults, validation, all problems at once. */
import { expect } from 'chai';
import { ConfigError, loadConfig, requiredInternalSecret, SECRET_NEEDED_BY } from './config';

/** A local stack: the deployment rules (published secrets) are the subject of their own tests. */
const DEVELOPMENT = { GDS_ENV: 'development' };

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig(DEVELOPMENT);
    expect(config.port).to.equal(8080);
    expect(config.limits).to.include({
      projectLimit: 100,
      branchLimit: 25,
      rateLimitReadPerMin: 1200,
      rateLimitWritePerMin: 300,
      maxDeltasPerBatch: 1000,
    });
    expect(config.idempotencyTtlSeconds).to.equal(86400);
    expect(config.serviceVersion).to.match(/^\d+\.\d+\.\d+/);
  });

  it('states the request bounds and per-branch quotas docs/OPERATIONS.md lists, each settable', () => {
    const defaults = loadConfig(DEVELOPMENT);
    expect(defaults.limits).to.include({
      maxBatchBytes: 2 * 1024 * 1024,
      maxFindings: 1000,
      maxNestingDepth: 64,
    });
    expect(defaults.quotas).to.deep.equal({
      maxNodes: 200_000,
      maxWires: 400_000,
      maxStoredBytes: 256 * 1024 * 1024,
    });
    const set = loadConfig({
      ...DEVELOPMENT,
      MAX_BATCH_BYTES: '4096',
      MAX_FINDINGS: '5',
      MAX_NESTING_DEPTH: '8',
      BRANCH_MAX_NODES: '10',
      BRANCH_MAX_WIRES: '20',
      BRANCH_MAX_BYTES: '65536',
    });
    expect(set.limits).to.include({ maxBatchBytes: 4096, maxFindings: 5, maxNestingDepth: 8 });
    expect(set.quotas).to.deep.equal({ maxNodes: 10, maxWires: 20, maxStoredBytes: 65536 });
    expect(() =>
      loadConfig({ ...DEVELOPMENT, MAX_NESTING_DEPTH: '1', BRANCH_MAX_NODES: '0' }),
    ).to.throw(ConfigError);
  });

  it('keeps 30 days of history and at least 20 main versions unless told otherwise', () => {
    expect(loadConfig(DEVELOPMENT).history).to.deep.equal({
      retentionDays: 30,
      minMainVersions: 20,
    });
    const set = loadConfig({
      ...DEVELOPMENT,
      HISTORY_RETENTION_DAYS: '0',
      HISTORY_MIN_MAIN_VERSIONS: '3',
    });
    expect(set.history).to.deep.equal({ retentionDays: 0, minMainVersions: 3 });
    expect(() =>
      loadConfig({ ...DEVELOPMENT, HISTORY_RETENTION_DAYS: '-1', HISTORY_MIN_MAIN_VERSIONS: '0' }),
    )
      .to.throw(ConfigError)
      .with.property('problems')
      .that.deep.equals([
        'HISTORY_RETENTION_DAYS must be an integer >= 0, got "-1"',
        'HISTORY_MIN_MAIN_VERSIONS must be >= 1, got 0',
      ]);
  });

  it('plans the largest statements as a process starts unless NEO4J_WARM_PLANS is false', () => {
    expect(loadConfig(DEVELOPMENT).neo4j.warmPlans).to.equal(true);
    expect(loadConfig({ ...DEVELOPMENT, NEO4J_WARM_PLANS: 'false' }).neo4j.warmPlans).to.equal(
      false,
    );
    expect(() => loadConfig({ ...DEVELOPMENT, NEO4J_WARM_PLANS: 'no' }))
      .to.throw(ConfigError)
      .with.property('problems')
      .that.deep.equals(['NEO4J_WARM_PLANS must be true or false, got "no"']);
  });

  it('writes a staged import STAGE_WRITERS transactions side by side: 1 to 16', () => {
    expect(loadConfig(DEVELOPMENT).staging.writers).to.equal(2);
    expect(loadConfig({ ...DEVELOPMENT, STAGE_WRITERS: '4' }).staging.writers).to.equal(4);
    for (const [raw, problem] of [
      ['0', 'STAGE_WRITERS must be >= 1, got 0'],
      ['17', 'STAGE_WRITERS must be <= 16, got 17'],
    ])
      expect(() => loadConfig({ ...DEVELOPMENT, STAGE_WRITERS: raw }))
        .to.throw(ConfigError)
        .with.property('problems')
        .that.deep.equals([problem]);
  });

  it('remembers write bookmarks for reads by default only through a routing NEO4J_URI', () => {
    // one server (bolt://) shows every committed write to every later read: nothing to remember
    expect(loadConfig(DEVELOPMENT).bookmarkTtlSeconds).to.equal(0);
    expect(
      loadConfig({ ...DEVELOPMENT, NEO4J_URI: 'bolt+s://db:7687' }).bookmarkTtlSeconds,
    ).to.equal(0);
    expect(
      loadConfig({ ...DEVELOPMENT, NEO4J_URI: 'neo4j://db:7687' }).bookmarkTtlSeconds,
    ).to.equal(60);
    expect(
      loadConfig({ ...DEVELOPMENT, NEO4J_URI: 'neo4j+s://db:7687' }).bookmarkTtlSeconds,
    ).to.equal(60);
    const told = { GRAPH_BOOKMARK_TTL_S: '15' };
    expect(loadConfig({ ...DEVELOPMENT, ...told }).bookmarkTtlSeconds).to.equal(15);
    expect(
      loadConfig({ ...DEVELOPMENT, ...told, NEO4J_URI: 'neo4j://db:7687' }).bookmarkTtlSeconds,
    ).to.equal(15);
    expect(
      loadConfig({ ...DEVELOPMENT, GRAPH_BOOKMARK_TTL_S: '0', NEO4J_URI: 'neo4j://db' })
        .bookmarkTtlSeconds,
    ).to.equal(0);
  });

  it('bounds the wait for a bookmark: GRAPH_BOOKMARK_WAIT_MS, 5000 by default, at least 1', () => {
    expect(loadConfig(DEVELOPMENT).neo4j.bookmarkWaitMs).to.equal(5000);
    expect(
      loadConfig({ ...DEVELOPMENT, GRAPH_BOOKMARK_WAIT_MS: '750' }).neo4j.bookmarkWaitMs,
    ).to.equal(750);
    expect(() => loadConfig({ ...DEVELOPMENT, GRAPH_BOOKMARK_WAIT_MS: '0' })).to.throw(
      ConfigError,
      /GRAPH_BOOKMARK_WAIT_MS/,
    );
  });

  it('reports every problem at once', () => {
    try {
      loadConfig({
        ...DEVELOPMENT,
        PORT: 'eighty',
        PROJECT_LIMIT: '0',
        REDIS_URL: 'http://x',
        LOG_LEVEL: 'loud',
      });
      expect.fail('expected a ConfigError');
    } catch (error) {
      expect(error).to.be.instanceOf(ConfigError);
      expect((error as ConfigError).problems).to.have.length(4);
    }
  });

  it('reads the web origins allowed at /mcp from MCP_ALLOWED_ORIGINS, as browsers send them', () => {
    expect(loadConfig(DEVELOPMENT).mcp.allowedOrigins).to.deep.equal([]);
    const config = loadConfig({
      ...DEVELOPMENT,
      MCP_ALLOWED_ORIGINS: 'https://Graph.Example.com:443, http://10.0.0.5:8080',
    });
    expect(config.mcp.allowedOrigins).to.deep.equal([
      'https://graph.example.com',
      'http://10.0.0.5:8080',
    ]);
    expect(
      loadConfig({ ...DEVELOPMENT, MCP_ALLOWED_ORIGINS: '*' }).mcp.allowedOrigins,
    ).to.deep.equal(['*']);
    for (const bad of ['graph.example.com', 'https://graph.example.com/mcp', 'ftp://x'])
      expect(() => loadConfig({ ...DEVELOPMENT, MCP_ALLOWED_ORIGINS: bad }), bad).to.throw(
        ConfigError,
        /MCP_ALLOWED_ORIGINS/,
      );
  });

  it('reads Redis Cluster seed nodes from REDIS_CLUSTER_NODES and rejects malformed entries', () => {
    expect(loadConfig(DEVELOPMENT).redisClusterNodes).to.equal(undefined);
    const set = loadConfig({
      ...DEVELOPMENT,
      REDIS_CLUSTER_NODES: 'redis-0.redis:6379, 10.0.0.2:7001,[::1]:7002',
    });
    expect(set.redisClusterNodes).to.deep.equal([
      { host: 'redis-0.redis', port: 6379 },
      { host: '10.0.0.2', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
    try {
      loadConfig({ ...DEVELOPMENT, REDIS_CLUSTER_NODES: 'redis-0:6379,nohost,redis-1:70000,:1' });
      expect.fail('expected a ConfigError');
    } catch (error) {
      const problems = (error as ConfigError).problems;
      expect(problems).to.have.length(3);
      expect(problems[0]).to.contain('"nohost"');
    }
  });

  it('reads several processes of one service from SERVICE_URLS, called in turn', () => {
    const secret = { INTERNAL_SECRET: 'x'.repeat(32) };
    const base = 'projects=http://p,branches=http://b,graph-write=http://w,decisions=http://d';
    const set = loadConfig({
      ...DEVELOPMENT,
      ...secret,
      SERVICE_URLS: `${base},graph-read=http://r1:8080,http://r2:8080`,
    });
    expect(set.serviceUrlPools?.['graph-read']).to.deep.equal(['http://r1:8080', 'http://r2:8080']);
    expect(set.serviceUrlPools?.projects).to.deep.equal(['http://p']);
    expect(set.serviceUrls?.['graph-read']).to.equal('http://r1:8080');
    for (const bad of [
      `http://r0,${base},graph-read=http://r1`,
      `${base},graph-read=http://r1,graph-read=http://r2`,
    ]) {
      expect(() => loadConfig({ ...DEVELOPMENT, ...secret, SERVICE_URLS: bad }), bad).to.throw(
        ConfigError,
      );
    }
  });

  it('holds every process of separate-process mode to one INTERNAL_SECRET rule', () => {
    const base =
      'projects=http://p,branches=http://b,graph-read=http://r,graph-write=http://w,decisions=http://d';
    const short = { INTERNAL_SECRET: 'x'.repeat(31), SERVICE_URLS: base };
    const problems = (env: Record<string, string>, options = {}) => {
      try {
        loadConfig({ ...DEVELOPMENT, ...env }, options);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems(short)).to.deep.equal([
      'INTERNAL_SECRET of at least 32 characters is needed with SERVICE_URLS',
    ]);
    expect(problems({}, { requireInternalSecret: true })).to.deep.equal([
      'INTERNAL_SECRET of at least 32 characters is needed by a service process',
    ]);
    // a config built without the secret is refused where the secret is used
    const config = loadConfig(DEVELOPMENT);
    expect(() => requiredInternalSecret(config, SECRET_NEEDED_BY.serviceProcess)).to.throw(
      ConfigError,
      'by a service process',
    );
    const secret = 'y'.repeat(32);
    expect(
      requiredInternalSecret(
        loadConfig({ ...DEVELOPMENT, INTERNAL_SECRET: secret }),
        SECRET_NEEDED_BY.gateway,
      ),
    ).to.equal(secret);
  });
});
