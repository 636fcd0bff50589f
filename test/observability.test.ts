/**
 * The dashboard and the alerting rules of deploy/observability read only metrics the
 * service exports: every metric name in their PromQL is one a running gateway's
 * /metrics declares (Prometheus's own `up` aside). A panel or an alert on a metric
 * that was renamed or never existed shows nothing and never fires, silently. Also
 * the gauges and counters they were added for: the stores' availability and Redis
 * memory, and rate-limit refusals by bucket.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import { ServiceMetrics } from '../services/platform';
import { RateLimits } from '../services/gateway/rateLimits';
import { RateLimitedError } from '../shared/errors/domainErrors';
import { currentHarness, uniqueName } from './support/harness';
import { exposedMetricNames, promqlMetricNames } from './support/promqlNames';

const DIR = join(__dirname, '..', 'deploy', 'observability');
/** Made by Prometheus itself for each scrape target. */
const PROMETHEUS_OWN = new Set(['up']);

type Json = Record<string, any>;

/** Every PromQL expression of the dashboard: its panels' targets and its query variables. */
function dashboardExpressions(): { where: string; expr: string }[] {
  const dashboard = JSON.parse(readFileSync(join(DIR, 'dashboard.json'), 'utf8')) as Json;
  const found: { where: string; expr: string }[] = [];
  for (const panel of dashboard.panels as Json[])
    for (const target of (panel.targets ?? []) as Json[])
      found.push({ where: `panel "${panel.title}"`, expr: target.expr as string });
  for (const variable of dashboard.templating.list as Json[]) {
    if (variable.type !== 'query') continue;
    const query = (variable.query?.query ?? variable.query) as string;
    const selector = /^label_values\((.*),\s*\w+\)$/.exec(query)?.[1] ?? query;
    found.push({ where: `variable $${variable.name}`, expr: selector });
  }
  return found;
}

function ruleExpressions(): { where: string; expr: string }[] {
  const rules = parse(readFileSync(join(DIR, 'alerts.yaml'), 'utf8')) as Json;
  return (rules.groups as Json[]).flatMap((group) =>
    (group.rules as Json[]).map((rule) => ({
      where: `rule ${rule.alert ?? rule.record}`,
      expr: rule.expr as string,
    })),
  );
}

async function exposition(): Promise<string> {
  const res = await currentHarness().anon.get<string>('/metrics');
  expect(res.status).to.equal(200);
  return res.body;
}

function sampleValue(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe('dashboards and alerts as code (deploy/observability)', () => {
  it('reads metric names out of PromQL, not labels, functions, keywords or Grafana variables', () => {
    expect(
      promqlMetricNames(
        'histogram_quantile(0.95, sum by (le, operation_id) (rate(gds_http_request_duration_seconds_bucket{job=~"$job", status=~"5.."}[$__rate_interval]))) > 2.5 unless on () max(gds_maintenance) > 0',
      ).sort(),
    ).to.deep.equal(['gds_http_request_duration_seconds_bucket', 'gds_maintenance']);
    expect(
      promqlMetricNames('up{job="graph-design"} == 0 and on(instance) gds_made_up_total'),
    ).to.deep.equal(['up', 'gds_made_up_total']);
  });

  it('names in its dashboard and alerting rules only metrics a running gateway exports', async () => {
    const exported = exposedMetricNames(await exposition());
    expect(exported.has('gds_http_requests_total'), 'the exposition was read').to.equal(true);
    const expressions = [...dashboardExpressions(), ...ruleExpressions()];
    expect(expressions.length).to.be.greaterThan(20);
    const missing = expressions.flatMap(({ where, expr }) =>
      promqlMetricNames(expr)
        .filter((name) => !exported.has(name) && !PROMETHEUS_OWN.has(name))
        .map((name) => `${where}: ${name}`),
    );
    expect(missing, 'metrics named but not exported').to.deep.equal([]);
    // each of the things the dashboard is for is on it
    const all = expressions.map((e) => e.expr).join('\n');
    for (const name of [
      'gds_http_requests_total',
      'gds_http_request_duration_seconds_bucket',
      'gds_dependency_up',
      'gds_queue_jobs',
      'gds_rate_limit_refusals_total',
      'gds_redis_used_memory_bytes',
      'gds_redis_maxmemory_bytes',
      'gds_maintenance',
    ])
      expect(all, name).to.include(name);
  });

  it('reports Neo4j and Redis up, and Redis memory against its maxmemory cap', async () => {
    const text = await exposition();
    expect(sampleValue(text, 'gds_dependency_up{dependency="neo4j"}')).to.equal(1);
    expect(sampleValue(text, 'gds_dependency_up{dependency="redis"}')).to.equal(1);
    expect(sampleValue(text, 'gds_maintenance')).to.equal(0);
    const memory = text
      .split('\n')
      .filter((l) => /^gds_redis_(used_memory|maxmemory)_bytes\{node="[^"]+"\} \d+$/.test(l));
    const used = memory.filter((l) => l.startsWith('gds_redis_used_memory_bytes'));
    const max = memory.filter((l) => l.startsWith('gds_redis_maxmemory_bytes'));
    expect(used.length, text).to.be.greaterThan(0);
    expect(max.length).to.equal(used.length);
    // the local stacks cap each Redis (scripts/lib/redis.sh: 256 MB unless REDIS_MAXMEMORY)
    for (const line of max) expect(Number(line.split(' ')[1])).to.be.greaterThan(0);
    for (const line of used) expect(Number(line.split(' ')[1])).to.be.greaterThan(0);
  });

  it('counts each request refused by a rate limit under its bucket', async () => {
    const metrics = new ServiceMetrics({ defaultMetrics: false });
    const limits = new RateLimits({
      redis: currentHarness().service.redis,
      perMinute: { read: 1, write: 2, anon: 1 },
      prefix: `rl-test-${uniqueName('refusals')}`,
      onRefused: metrics.countRefusal,
    });
    const key = uniqueName('key');
    await limits.consume('write', key);
    await limits.consume('write', key);
    for (let i = 0; i < 3; i++) {
      const refused = await limits.consume('write', key).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(refused).to.be.instanceOf(RateLimitedError);
    }
    await limits.consume('read', key);
    const text = await metrics.render();
    expect(sampleValue(text, 'gds_rate_limit_refusals_total{bucket="write"}')).to.equal(3);
    expect(sampleValue(text, 'gds_rate_limit_refusals_total{bucket="read"}')).to.equal(0);
    expect(sampleValue(text, 'gds_rate_limit_refusals_total{bucket="in_flight"}')).to.equal(0);
  });
});
