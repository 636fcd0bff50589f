/**
 * Container and orchestration files agree with the code: they parse,
 * every variable they set is one shared/config/config.ts reads, ports match,
 * probe paths are operations of the OpenAPI document, every process the code has
 * (gateway, the five service processes of separate-process mode, worker) is
 * deployed, and SERVICE_URLS names each service process where it is reachable. As
 * deployed, the trust boundaries hold: published example secrets are refused, Redis
 * has ACL users only, NetworkPolicies let only the gateway reach the service processes
 * and only the service's processes reach Redis and Neo4j, the ingress is a trusted
 * proxy, and idle connections outlive the ingress's.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { parse, parseAllDocuments } from 'yaml';
import { OPENAPI_PATH } from '../services/platform';
import { ConfigError, loadConfig } from '../shared/config/config';
import { SERVICE_NAMES } from '../shared/config/serviceNames';

type Json = Record<string, any>;
const ROOT = join(__dirname, '..');
const K8S = join(ROOT, 'deploy', 'k8s');
function yamlDocs(path: string): Json[] {
  return parseAllDocuments(readFileSync(path, 'utf8'), { merge: true }).map((doc) => {
    expect(doc.errors, path).to.deep.equal([]);
    return doc.toJS() as Json;
  });
}

/** The variables the configuration reads (config.ts and its readers in shared/config/):
 * `env.NAME` and `env, 'NAME'`. */
function configVariables(): Set<string> {
  const dir = join(ROOT, 'shared', 'config');
  const source = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
  const names = new Set<string>();
  for (const m of source.matchAll(/env(?:\.([A-Z][A-Z0-9_]*)|,\s*'([A-Z][A-Z0-9_]*)')/g)) {
    names.add(m[1] ?? m[2]);
  }
  return names;
}

const k8s = readdirSync(K8S)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((f) => yamlDocs(join(K8S, f)).map((doc) => ({ file: f, doc })));
const ofKind = (kind: string) => k8s.filter((r) => r.doc.kind === kind).map((r) => r.doc);
const deployments = ofKind('Deployment');
const containerOf = (d: Json): Json => d.spec.template.spec.containers[0];
const openapi = parse(readFileSync(OPENAPI_PATH, 'utf8')) as Json;
const compose = yamlDocs(join(ROOT, 'docker-compose.yml'))[0];
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const appServices = Object.entries(compose.services as Record<string, Json>).filter(
  ([, s]) => s.build !== undefined,
);
/** Every Secret of the example file: the service's (first) and Redis's. */
const exampleSecrets = yamlDocs(join(K8S, 'secret.example.yaml'));
const secretValues = Object.assign({}, ...exampleSecrets.map((s) => s.stringData)) as Json;
/** Secrets of a deployment's own (what an operator creates). */
const OWN_SECRETS = {
  NEO4J_PASSWORD: 'a-neo4j-password-of-its-own',
  REDIS_PASSWORD: 'a-redis-password-of-its-own',
  INTERNAL_SECRET: 'an-internal-secret-of-its-own-0123456789',
  METRICS_TOKEN: 'a-metrics-token-of-its-own',
};

/** The configuration problems of `env` ([] when it loads). */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
}

/** Compose's `${NAME:-default}` (and `${NAME}`) as compose fills them when NAME is unset. */
function composeDefaults(env: Json): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => [
      k,
      String(v).replace(
        /\$\{[A-Z][A-Z0-9_]*(?::-([^}]*))?\}/g,
        (_m, d: string | undefined) => d ?? '',
      ),
    ]),
  );
}

/** `dist/x/y.js` is built from `x/y.ts`. */
function entryExists(command: string[]): boolean {
  const script = command.find((part) => /^dist\/.+\.js$/.test(part));
  return (
    script !== undefined &&
    existsSync(join(ROOT, script.replace(/^dist\//, '').replace(/\.js$/, '.ts')))
  );
}

describe('deployment files', () => {
  const variables = configVariables();

  it('reads the configuration variables from config.ts', () => {
    for (const name of ['PORT', 'HOST', 'NEO4J_URI', 'NEO4J_PASSWORD', 'REDIS_URL', 'LOG_LEVEL']) {
      expect(variables.has(name), name).to.equal(true);
    }
  });

  it('Dockerfile: multi-stage, non-root, tsc build, runtime entry points that exist', () => {
    expect(dockerfile.match(/^FROM /gm)?.length).to.be.at.least(2);
    expect(dockerfile).to.match(/RUN npm run build/);
    expect(dockerfile).to.match(/npm ci --omit=dev/);
    expect(dockerfile).to.match(/^USER node$/m);
    expect(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')).to.contain('services');
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]') as string[];
    expect(entryExists(cmd), cmd.join(' ')).to.equal(true);
    for (const m of dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)) {
      for (const source of m[1].split(' '))
        expect(existsSync(join(ROOT, source)), source).to.equal(true);
    }
    const env = /^ENV ((?:.|\\\n)+?)$(?<!\\)/m.exec(dockerfile)?.[1] ?? '';
    for (const m of env.matchAll(/([A-Z][A-Z0-9_]*)=/g))
      expect(variables.has(m[1]), m[1]).to.equal(true);
    expect(env).to.contain('PORT=8080');
    expect(dockerfile).to.match(/^EXPOSE 8080$/m);
  });

  it('Dockerfile: every stage builds on a Node.js release still supported (24 or later)', () => {
    const bases = [...dockerfile.matchAll(/^FROM node:(\d+)/gm)].map((m) => Number(m[1]));
    expect(bases.length).to.be.at.least(2);
    for (const major of bases) expect(major, `node:${major}`).to.be.at.least(24);
  });

  it('docker-compose: Neo4j 5 and Redis 7 with healthchecks; gateway, five services and worker from the build', () => {
    expect(compose.services.neo4j.image).to.match(/^neo4j:5/);
    expect(compose.services.redis.image).to.match(/^redis:7/);
    expect(appServices.map(([name]) => name).sort()).to.deep.equal(
      ['api', 'worker', ...SERVICE_NAMES].sort(),
    );
    for (const name of ['neo4j', 'redis', 'api', ...SERVICE_NAMES]) {
      expect(compose.services[name].healthcheck, name).to.be.an('object');
    }
    // the worker serves no HTTP, so the image's /healthz check is switched off for it
    expect(compose.services.worker.healthcheck).to.deep.equal({ disable: true });
    for (const [name, service] of appServices) {
      expect(entryExists(service.command), name).to.equal(true);
      for (const key of Object.keys(service.environment)) {
        expect(variables.has(key), `${name} ${key}`).to.equal(true);
      }
      expect(service.depends_on.neo4j.condition).to.equal('service_healthy');
      expect(service.depends_on.redis.condition).to.equal('service_healthy');
      expect(service.environment.NEO4J_URI).to.equal('bolt://neo4j:7687');
      expect(service.environment.REDIS_URL).to.equal('redis://redis:6379');
      expect(service.environment.INTERNAL_SECRET, name).to.be.a('string');
    }
    const api = compose.services.api;
    expect(api.ports).to.deep.equal([`8080:${api.environment.PORT}`]);
    expect(api.healthcheck.test.join(' ')).to.contain(`:${api.environment.PORT}/readyz`);
    const urls = Object.fromEntries(
      (api.environment.SERVICE_URLS as string).split(',').map((p) => p.split('=')),
    );
    for (const name of SERVICE_NAMES) {
      const owner = compose.services[name];
      expect(owner.command.slice(-2), name).to.deep.equal(['dist/services/split/main.js', name]);
      expect(urls[name], name).to.equal(`http://${name}:${owner.environment.PORT}`);
    }
  });

  it('k8s: every variable set is one config.ts reads; ConfigMap and Secret refs resolve', () => {
    const configMaps = ofKind('ConfigMap');
    const secret = exampleSecrets[0];
    for (const cm of configMaps)
      for (const key of Object.keys(cm.data)) expect(variables.has(key), key).to.equal(true);
    for (const key of Object.keys(secret.stringData))
      expect(variables.has(key), key).to.equal(true);
    for (const d of deployments) {
      const c = containerOf(d);
      for (const e of c.env ?? []) {
        expect(variables.has(e.name), `${d.metadata.name} ${e.name}`).to.equal(true);
        const ref = e.valueFrom?.secretKeyRef;
        if (ref) {
          const named = exampleSecrets.find((x) => x.metadata.name === ref.name);
          expect(named?.stringData, `${d.metadata.name} ${ref.name}`).to.have.property(ref.key);
        }
      }
      for (const from of c.envFrom ?? []) {
        expect(configMaps.map((cm) => cm.metadata.name)).to.include(from.configMapRef.name);
      }
    }
    const kustomization = yamlDocs(join(K8S, 'kustomization.yaml'))[0];
    const listed = readdirSync(K8S).filter(
      (f) => f.endsWith('.yaml') && !['kustomization.yaml', 'secret.example.yaml'].includes(f),
    );
    expect([...kustomization.resources].sort()).to.deep.equal(listed.sort());
  });

  it('k8s: gateway and worker deployed, ports agree, probes are /healthz and /readyz of the document', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).to.deep.equal(
      ['api', 'worker', ...SERVICE_NAMES].sort(),
    );
    const port = Number(ofKind('ConfigMap')[0].data.PORT);
    const entries = new Set<string>();
    for (const d of deployments) {
      const c = containerOf(d);
      expect(entryExists(c.command), d.metadata.name).to.equal(true);
      entries.add(c.command.join(' '));
      expect(d.spec.selector.matchLabels).to.deep.include(
        Object.fromEntries(
          Object.entries(d.spec.template.metadata.labels).filter(
            ([k]) => k in d.spec.selector.matchLabels,
          ),
        ),
      );
      expect(c.resources.requests).to.have.keys('cpu', 'memory');
      expect(d.spec.template.spec.securityContext.runAsNonRoot).to.equal(true);
      if (c.command.includes('dist/services/worker/main.js')) continue;
      expect(c.ports).to.deep.equal([{ name: 'http', containerPort: port }]);
      expect(c.livenessProbe.httpGet.path).to.equal('/healthz');
      expect(c.readinessProbe.httpGet.path).to.equal('/readyz');
      for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) {
        const operation = openapi.paths[probe.httpGet.path]?.get;
        expect(operation, probe.httpGet.path).to.be.an('object');
        expect(operation.security).to.deep.equal([]);
        expect(probe.httpGet.port).to.equal('http');
      }
      const shutdown = Number(ofKind('ConfigMap')[0].data.SHUTDOWN_TIMEOUT_S);
      expect(d.spec.template.spec.terminationGracePeriodSeconds).to.be.greaterThan(shutdown + 5);
      const service = ofKind('Service').find((s) => s.metadata.name === d.metadata.name);
      expect(service?.spec.selector).to.deep.equal(d.spec.selector.matchLabels);
      expect(service?.spec.ports[0].targetPort).to.equal('http');
    }
    expect(entries).to.include('node dist/services/gateway/main.js');
    expect(entries).to.include('node dist/services/worker/main.js');
    for (const name of SERVICE_NAMES) {
      expect(entries).to.include(`node dist/services/split/main.js ${name}`);
    }
  });

  it('k8s: a PodDisruptionBudget per deployment and an autoscaler for graph-read', () => {
    const pdbs = ofKind('PodDisruptionBudget');
    for (const d of deployments) {
      expect(
        pdbs.some((p) => p.spec.selector.matchLabels['app.kubernetes.io/name'] === d.metadata.name),
        d.metadata.name,
      ).to.equal(true);
    }
    const [hpa] = ofKind('HorizontalPodAutoscaler');
    expect(hpa.spec.scaleTargetRef).to.include({ kind: 'Deployment', name: 'graph-read' });
    expect(hpa.spec.minReplicas).to.be.at.least(2);
  });

  it('SERVICE_URLS names every service process at its Service; the ingress sends all to the gateway', () => {
    const urls = Object.fromEntries(
      (ofKind('ConfigMap')[0].data.SERVICE_URLS as string).split(',').map((p) => p.split('=')),
    );
    expect(Object.keys(urls).sort()).to.deep.equal([...SERVICE_NAMES].sort());
    for (const name of SERVICE_NAMES) {
      const service = ofKind('Service').find((s) => s.metadata.name === name);
      expect(service?.spec.ports[0].port, name).to.equal(80);
      expect(urls[name]).to.equal(`http://${name}`);
      const d = deployments.find((x) => x.metadata.name === name);
      expect(containerOf(d!).command.at(-1)).to.equal(name);
    }
    const [ingress] = ofKind('Ingress');
    const paths = ingress.spec.rules[0].http.paths as Json[];
    expect(paths.map((p) => [p.path, p.backend.service.name])).to.deep.equal([['/', 'api']]);
    expect(secretValues).to.have.property('INTERNAL_SECRET');
    // What a pod gets loads without a configuration error (split mode included), once
    // the Secrets hold secrets of the deployment's own.
    const config = loadConfig({ ...ofKind('ConfigMap')[0].data, ...OWN_SECRETS });
    expect(config.serviceUrls?.['graph-read']).to.equal('http://graph-read');
    expect(config.host).to.equal('0.0.0.0');
  });

  it('k8s: a Neo4j cluster through a routing URI and a Redis Cluster the seeds and the create Job agree on', () => {
    const data = ofKind('ConfigMap')[0].data;
    expect(data.NEO4J_URI).to.match(/^neo4j(\+s)?:\/\/[a-z0-9-]+-lb-neo4j\./);
    const [set] = ofKind('StatefulSet').filter((x) => x.metadata.name === 'redis-cluster');
    expect(set.spec.replicas).to.equal(6);
    expect(set.spec.template.spec.securityContext.runAsNonRoot).to.equal(true);
    const service = ofKind('Service').find((x) => x.metadata.name === set.spec.serviceName);
    expect(service?.spec.clusterIP).to.equal('None');
    expect(service?.spec.selector).to.deep.equal(set.spec.selector.matchLabels);
    const server = set.spec.template.spec.containers[0].command.join(' ');
    expect(server).to.contain('--cluster-enabled yes');
    expect(server).to.contain('--maxmemory-policy noeviction');
    const config = loadConfig({ ...data, ...OWN_SECRETS });
    expect(config.redisClusterNodes).to.have.length.at.least(3);
    for (const node of config.redisClusterNodes ?? []) {
      const m = /^redis-cluster-(\d+)\.redis-cluster$/.exec(node.host);
      expect(m, node.host).to.not.equal(null);
      expect(Number(m![1])).to.be.below(set.spec.replicas);
      expect(node.port).to.equal(service?.spec.ports[0].port);
    }
    const [job] = ofKind('Job');
    const create = job.spec.template.spec.containers[0].command.join(' ');
    expect(create).to.contain('--cluster-replicas 1');
    expect(create).to.contain('for i in 0 1 2 3 4 5');
  });

  it('docker-compose: profile redis-cluster runs three cluster nodes and joins them', () => {
    const nodes = ['redis-node-1', 'redis-node-2', 'redis-node-3'];
    const init = compose.services['redis-cluster-init'];
    expect(init.profiles).to.deep.equal(['redis-cluster']);
    for (const name of nodes) {
      const node = compose.services[name];
      expect(node.profiles, name).to.deep.equal(['redis-cluster']);
      expect(node.image).to.match(/^redis:7/);
      expect(node.command.join(' '), name).to.contain(
        `--cluster-enabled yes --cluster-node-timeout 5000 --cluster-announce-hostname ${name}`,
      );
      expect(init.depends_on[name].condition).to.equal('service_healthy');
      expect(init.entrypoint.join(' ')).to.contain(`getent hosts ${name} `);
    }
    // the single Redis stays the default: the variable is empty unless set
    for (const [name, service] of appServices)
      expect(service.environment.REDIS_CLUSTER_NODES, name).to.equal('${REDIS_CLUSTER_NODES:-}');
    const sample = loadConfig({
      GDS_ENV: 'development',
      REDIS_CLUSTER_NODES: nodes.map((n) => `${n}:6379`).join(','),
    });
    expect(sample.redisClusterNodes?.map((n) => n.host)).to.deep.equal(nodes);
  });
  it('k8s: outside development the published example Secrets are refused; secrets of its own load', () => {
    const data = ofKind('ConfigMap')[0].data;
    expect(data.GDS_ENV).to.equal('production');
    const problems = problemsOf({ ...data, ...secretValues });
    for (const name of ['NEO4J_PASSWORD', 'REDIS_PASSWORD', 'INTERNAL_SECRET', 'METRICS_TOKEN'])
      expect(
        problems.some((p) => p.startsWith(name) && p.includes('published')),
        `${name} in ${problems.join('; ')}`,
      ).to.equal(true);
    // forgetting a Secret is refused too (the driver's default Neo4j password is neo4j)
    const forgotten: Record<string, string> = { ...OWN_SECRETS };
    delete forgotten.NEO4J_PASSWORD;
    expect(problemsOf({ ...data, ...forgotten })).to.deep.equal([
      'NEO4J_PASSWORD must be set outside development (GDS_ENV)',
    ]);
    expect(problemsOf({ ...data, ...OWN_SECRETS })).to.deep.equal([]);
  });

  it('k8s: Redis has ACL users only; the service logs in as gds, probes, the create Job and replicas as admin', () => {
    const data = ofKind('ConfigMap')[0].data;
    expect(data.REDIS_USERNAME).to.equal('gds');
    const redisSecret = exampleSecrets.find((x) => x.metadata.name === 'graph-design-redis');
    expect(redisSecret?.stringData).to.have.keys('REDIS_PASSWORD', 'REDIS_ADMIN_PASSWORD');
    const fromSecret = (c: Json, name: string) =>
      (c.env as Json[] | undefined)?.find((e) => e.name === name)?.valueFrom?.secretKeyRef;
    for (const d of deployments)
      expect(fromSecret(containerOf(d), 'REDIS_PASSWORD'), d.metadata.name).to.deep.equal({
        name: 'graph-design-redis',
        key: 'REDIS_PASSWORD',
      });
    const config = loadConfig({ ...data, ...OWN_SECRETS });
    expect(new URL(config.redisUrl).username).to.equal('gds');
    const [set] = ofKind('StatefulSet').filter((x) => x.metadata.name === 'redis-cluster');
    const node = set.spec.template.spec.containers[0];
    const server = (node.command as string[]).join(' ');
    expect(server).to.contain('--user default off');
    expect(server).to.contain(`--user gds on ">$REDIS_PASSWORD" '~*' '&*' +@all -@admin`);
    expect(server).to.contain(`--user admin on ">$REDISCLI_AUTH" '~*' '&*' +@all`);
    expect(server).to.contain('--masteruser admin --masterauth "$REDISCLI_AUTH"');
    expect(fromSecret(node, 'REDIS_PASSWORD')).to.deep.equal({
      name: 'graph-design-redis',
      key: 'REDIS_PASSWORD',
    });
    expect(fromSecret(node, 'REDISCLI_AUTH')?.key).to.equal('REDIS_ADMIN_PASSWORD');
    expect(node.readinessProbe.exec.command.join(' ')).to.contain('redis-cli --user admin ping');
    const [job] = ofKind('Job');
    const create = job.spec.template.spec.containers[0];
    expect(create.command.join(' ')).to.contain('redis-cli --user admin --cluster create');
    expect(fromSecret(create, 'REDISCLI_AUTH')?.key).to.equal('REDIS_ADMIN_PASSWORD');
    // the single Redis of single-redis/ as well
    const single = yamlDocs(join(K8S, 'single-redis', 'redis.yaml'));
    const redis = single.find((x) => x.kind === 'StatefulSet')!.spec.template.spec.containers[0];
    const args = (redis.command as string[]).join(' ');
    expect(args).to.contain('--user default off');
    expect(args).to.contain(`--user gds on >$(REDIS_PASSWORD) ~* &* +@all -@admin`);
    expect(args).to.contain(`--user admin on >$(REDISCLI_AUTH)`);
    expect(redis.readinessProbe.exec.command.join(' ')).to.contain('redis-cli --user admin ping');
    const [policy] = single.filter((x) => x.kind === 'NetworkPolicy');
    expect(policy.spec.ingress[0].from[0].podSelector.matchExpressions[0].values).to.deep.equal([
      'gateway',
      'service',
      'worker',
    ]);
  });

  it('k8s: NetworkPolicies let only the ingress reach the gateway, only the gateway the service processes, only the service reach Redis and Neo4j', () => {
    type Selector = { matchLabels?: Record<string, string>; matchExpressions?: Json[] };
    const matches = (selector: Selector, labels: Record<string, string>) =>
      Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v) &&
      (selector.matchExpressions ?? []).every(
        (e) => e.operator === 'In' && (e.values as string[]).includes(labels[e.key]),
      );
    const pods = ['Deployment', 'StatefulSet', 'Job'].flatMap((kind) =>
      ofKind(kind).map((w) => ({
        name: w.metadata.name as string,
        labels: w.spec.template.metadata.labels as Record<string, string>,
      })),
    );
    const policies = ofKind('NetworkPolicy');
    /** Who may connect to pods `labels` selects on `port`: pod names, `ns:<name>` for namespaces. */
    const allowed = (
      namespace: string | undefined,
      labels: Record<string, string>,
      port: number,
    ) => {
      const selecting = policies.filter(
        (p) => p.metadata.namespace === namespace && matches(p.spec.podSelector, labels),
      );
      expect(selecting.length, JSON.stringify(labels)).to.be.above(0);
      const from = new Set<string>();
      for (const policy of selecting) {
        expect(policy.spec.policyTypes).to.deep.equal(['Ingress']);
        for (const rule of policy.spec.ingress as Json[]) {
          if (rule.ports && !(rule.ports as Json[]).some((p) => p.port === port)) continue;
          expect(rule.from, policy.metadata.name).to.be.an('array'); // never from anyone
          for (const peer of rule.from as Json[]) {
            const ns = peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'];
            if (peer.podSelector && (ns === undefined || ns === 'graph-design')) {
              for (const pod of pods) if (matches(peer.podSelector, pod.labels)) from.add(pod.name);
            } else from.add(`ns:${ns}`);
          }
        }
      }
      return [...from].sort();
    };
    const labelsOf = (name: string) => pods.find((p) => p.name === name)!.labels;
    expect(allowed(undefined, labelsOf('api'), 8080)).to.deep.equal([
      'ns:ingress-nginx',
      'ns:monitoring',
    ]);
    for (const name of SERVICE_NAMES)
      expect(allowed(undefined, labelsOf(name), 8080), name).to.deep.equal([
        'api',
        'ns:monitoring',
      ]);
    expect(allowed(undefined, labelsOf('worker'), 8080)).to.deep.equal([]);
    const service = ['api', 'worker', ...SERVICE_NAMES];
    expect(allowed(undefined, labelsOf('redis-cluster'), 6379)).to.deep.equal(
      [...service, 'redis-cluster', 'redis-cluster-create'].sort(),
    );
    expect(allowed(undefined, labelsOf('redis-cluster'), 16379)).to.deep.equal(['redis-cluster']);
    // Neo4j, in its own namespace: the service's processes on Bolt, besides its own servers
    const neo4jServer = { app: 'graph-design-neo4j' };
    expect(allowed('neo4j', neo4jServer, 7687)).to.deep.equal([...service].sort());
  });

  it('k8s: the ingress is a trusted proxy and idle connections outlive its 60 s', () => {
    const data = ofKind('ConfigMap')[0].data;
    const config = loadConfig({ ...data, ...OWN_SECRETS });
    expect(config.trustedProxies).to.include('uniquelocal');
    expect(config.http.keepAliveTimeoutMs).to.be.above(60_000);
    expect(config.http.headersTimeoutMs).to.be.above(config.http.keepAliveTimeoutMs);
  });

  it('docker-compose: Redis with ACL users only, the service as gds; published defaults refused unless GDS_ENV=development', () => {
    const acl = (command: string[]) => command.join(' ');
    for (const name of ['redis', 'redis-node-1', 'redis-node-2', 'redis-node-3']) {
      const redis = compose.services[name];
      const command = acl(redis.command);
      expect(command, name).to.contain('--user default off');
      expect(command, name).to.contain(
        '--user gds on >${REDIS_PASSWORD:-graph-design-dev} ~* &* +@all -@admin',
      );
      expect(command, name).to.contain('--user admin on >${REDIS_ADMIN_PASSWORD:-');
      expect(redis.healthcheck.test.join(' '), name).to.contain('redis-cli --user admin ping');
      expect(redis.environment.REDISCLI_AUTH, name).to.match(/^\$\{REDIS_ADMIN_PASSWORD:-/);
    }
    expect(compose.services['redis-cluster-init'].entrypoint.join(' ')).to.contain(
      'redis-cli --user admin --cluster create',
    );
    for (const [name, service] of appServices) {
      expect(service.environment.REDIS_USERNAME, name).to.equal('gds');
      expect(service.environment.REDIS_PASSWORD, name).to.equal(
        '${REDIS_PASSWORD:-graph-design-dev}',
      );
      expect(service.environment.GDS_ENV, name).to.equal('${GDS_ENV:-production}');
      // as compose fills it in when nothing is set: refused, but on a local try
      const env = composeDefaults(service.environment);
      const problems = problemsOf(env);
      for (const variable of ['NEO4J_PASSWORD', 'REDIS_PASSWORD', 'INTERNAL_SECRET'])
        expect(
          problems.some((p) => p.startsWith(variable)),
          `${name} ${variable}`,
        ).to.equal(true);
      expect(problemsOf({ ...env, GDS_ENV: 'development' }), name).to.deep.equal([]);
    }
  });
});
