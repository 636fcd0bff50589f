/**
 * The trust boundaries as deployed: outside development (GDS_ENV) the service refuses
 * to start with a secret anyone can read, takes its Redis credentials from a Secret,
 * believes X-Forwarded-For only from the proxies it is told of, and keeps idle
 * connections open longer than the load balancers in front of it.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { ConfigError, loadConfig } from './config';

const own = () => randomBytes(24).toString('base64url');

/** A deployment that set every secret of its own. */
const OWN_SECRETS = {
  NEO4J_PASSWORD: own(),
  REDIS_USERNAME: 'gds',
  REDIS_PASSWORD: own(),
  INTERNAL_SECRET: own() + own(),
  METRICS_TOKEN: own(),
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
}

describe('deployment settings', () => {
  it('refuses to start outside development without a Neo4j or Redis password', () => {
    expect(loadConfig({ GDS_ENV: 'development' }).environment).to.equal('development');
    expect(problemsOf({})).to.deep.equal([
      'NEO4J_PASSWORD must be set outside development (GDS_ENV)',
      'REDIS_PASSWORD (or a password in REDIS_URL) must be set outside development (GDS_ENV)',
    ]);
    expect(problemsOf({ GDS_ENV: 'production' })).to.have.length(2);
    expect(problemsOf({ GDS_ENV: 'staging' })[0]).to.contain('GDS_ENV must be');
  });

  it('refuses outside development every secret a product or this repository publishes', () => {
    const published: Record<string, string[]> = {
      NEO4J_PASSWORD: ['neo4j', 'graph-design-dev', 'change-me'],
      REDIS_PASSWORD: ['graph-design-dev', 'change-me-redis-password'],
      INTERNAL_SECRET: [
        'compose-internal-secret-change-me-0123456789',
        'change-me-to-at-least-32-random-characters',
      ],
      METRICS_TOKEN: ['change-me-metrics-token'],
    };
    for (const [name, values] of Object.entries(published))
      for (const value of values) {
        const problems = problemsOf({ ...OWN_SECRETS, [name]: value });
        expect(problems, `${name}=${value}`).to.have.length(1);
        expect(problems[0]).to.match(new RegExp(`^${name}.* published example or default`));
        // a local stack accepts it
        expect(problemsOf({ ...OWN_SECRETS, [name]: value, GDS_ENV: 'development' })).to.deep.equal(
          [],
        );
      }
    // a password in REDIS_URL counts as the Redis password
    const inUrl = { ...OWN_SECRETS, REDIS_PASSWORD: '', REDIS_USERNAME: '' };
    expect(problemsOf({ ...inUrl, REDIS_URL: 'redis://gds:change-me@r:6379' })[0]).to.match(
      /^REDIS_PASSWORD .*published/,
    );
    expect(problemsOf({ ...inUrl, REDIS_URL: `redis://gds:${own()}@r:6379` })).to.deep.equal([]);
  });

  it('puts REDIS_USERNAME and REDIS_PASSWORD into the Redis URL, escaped', () => {
    const config = loadConfig({
      ...OWN_SECRETS,
      REDIS_URL: 'redis://redis-cluster:6379',
      REDIS_PASSWORD: 'p@ss/w:rd',
    });
    const url = new URL(config.redisUrl);
    expect(url.host).to.equal('redis-cluster:6379');
    expect(decodeURIComponent(url.username)).to.equal('gds');
    expect(decodeURIComponent(url.password)).to.equal('p@ss/w:rd');
  });

  it('reads the trusted proxies as addresses, CIDRs or express names, and rejects others', () => {
    expect(loadConfig({ GDS_ENV: 'development' }).trustedProxies).to.deep.equal(['loopback']);
    const set = loadConfig({
      GDS_ENV: 'development',
      TRUSTED_PROXIES: 'loopback, 10.0.0.0/8,fd00::/8, 192.0.2.7,uniquelocal',
    });
    expect(set.trustedProxies).to.deep.equal([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
      '192.0.2.7',
      'uniquelocal',
    ]);
    // loopback always: the gateway's /mcp tools call it there with their caller's address
    expect(
      loadConfig({ GDS_ENV: 'development', TRUSTED_PROXIES: '10.0.0.0/8' }).trustedProxies,
    ).to.deep.equal(['loopback', '10.0.0.0/8']);
    for (const bad of ['10.0.0.0/33', 'ingress', '10.0.0.1/8/8', '::1/129'])
      expect(problemsOf({ GDS_ENV: 'development', TRUSTED_PROXIES: bad }), bad).to.have.length(1);
  });

  it('keeps idle HTTP connections above a 60 s load-balancer timeout unless told otherwise', () => {
    expect(loadConfig({ GDS_ENV: 'development' }).http).to.deep.equal({
      keepAliveTimeoutMs: 65_000,
      headersTimeoutMs: 66_000,
    });
    const set = loadConfig({
      GDS_ENV: 'development',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '125000',
      HTTP_HEADERS_TIMEOUT_MS: '126000',
    });
    expect(set.http).to.deep.equal({ keepAliveTimeoutMs: 125_000, headersTimeoutMs: 126_000 });
    expect(
      problemsOf({
        GDS_ENV: 'development',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '70000',
        HTTP_HEADERS_TIMEOUT_MS: '70000',
      }),
    ).to.deep.equal(['HTTP_HEADERS_TIMEOUT_MS must be above HTTP_KEEP_ALIVE_TIMEOUT_MS']);
  });
});
