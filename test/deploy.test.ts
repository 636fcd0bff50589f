/**
 * Container and orchestration files agree with the code: they parse,
 * every variable they set is one shared/config/config.ts reads, ports match,
 * probe paths are operations of the OpenAPI document, every process the code has
 * (gateway, the five service processes of separate-process mode, worker) is
 * deployed, and SERVICE_URLS names each service process where it is reachable.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { parse, parseAllDocuments } from 'yaml';
import { OPENAPI_PATH } from '../services/platform';
import { loadConfig } from '../shared/config/config';
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
    const secret = yamlDocs(join(K8S, 'secret.example.yaml'))[0];
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
          expect(secret.stringData).to.have.property(ref.key);
          expect(ref.name).to.equal(secret.metadata.name);
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
    const secret = yamlDocs(join(K8S, 'secret.example.yaml'))[0];
    expect(secret.stringData).to.have.property('INTERNAL_SECRET');
    // What a pod gets loads without a configuration error (split mode included).
    const config = loadConfig({ ...ofKind('ConfigMap')[0].data, ...secret.stringData });
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
    const config = loadConfig({ ...data, INTERNAL_SECRET: 'x'.repeat(32) });
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
    const sample = loadConfig({ REDIS_CLUSTER_NODES: nodes.map((n) => `${n}:6379`).join(',') });
    expect(sample.redisClusterNodes?.map((n) => n.host)).to.deep.equal(nodes);
  });
});
