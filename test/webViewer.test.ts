/**
 * The web viewer at /app in headless chromium (playwright-core): a seeded graph
 * renders with every node, port label and wire of the visible boundaries and a
 * boundary opens in place; selecting a node shows its panel and its source
 * decision opens the ledger; findings mark their
 * nodes; the diff colours exactly the added and changed nodes; the merge preview
 * locates a conflict on the graph; the change trail lists the batches; a selected
 * node's history lists the changes that touched it; a viewer
 * key browses with no write control; a bad key shows the 401 message. No request
 * leaves the service and the key never appears in a URL; axe-core finds no serious
 * or critical violation on any view; a screenshot of each view is saved under
 * .run/screenshots/.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildWeb } from '../web/build';
import { decisionOut, seedDecisions } from './support/decisionFixtures';
import { addEdge, addNode, port, PortSpec, uuid } from './support/graphBuilders';
import { currentHarness, grant, newUser, TestUser } from './support/harness';
import { BranchHandle, mergeProject, MergeProject } from './support/mergeWorkspace';
import {
  Browser,
  go,
  graphReady,
  launchChromium,
  markedNodes,
  nodeSelector as sel,
  openWithKey,
  screenshot,
  seriousViolations,
  TrackedPage,
  trackedPage,
} from './support/webBrowser';

interface Seeded {
  id: string;
  name: string;
  ports: PortSpec[];
}

function node(
  name: string,
  ports: { inputs?: PortSpec[]; outputs?: PortSpec[]; config?: PortSpec[] },
  extra: Record<string, unknown> = {},
  data: Record<string, unknown> = {},
): { seeded: Seeded; delta: unknown } {
  const id = uuid();
  const all = [...(ports.inputs ?? []), ...(ports.outputs ?? []), ...(ports.config ?? [])];
  return {
    seeded: { id, name, ports: all },
    delta: addNode({ id, ...extra, data: { name, ...ports, ...data } }),
  };
}

const wireSel = (id: string) => `[data-testid="rf__edge-${id}"]`;

describe('web viewer at /app in headless chromium', function () {
  this.timeout(300_000);
  let browser: Browser;
  let serviceUrl = '';
  let origin = '';
  let user: TestUser;
  let project: MergeProject;
  let b2: BranchHandle;
  let b3: BranchHandle;
  let decisionId = '';
  const pages: TrackedPage[] = [];
  const n: Record<string, Seeded> = {};
  const wires = { appToDb: uuid(), dbToPay: uuid(), coreToCheck: uuid(), coreToDb: uuid() };

  async function page(token = user.token): Promise<Page> {
    const tracked = await trackedPage(browser, origin);
    pages.push(tracked);
    await openWithKey(tracked.page, serviceUrl, token);
    return tracked.page;
  }
  async function axeClean(p: Page, view: string): Promise<void> {
    expect(await seriousViolations(p), `axe on ${view}`).to.deep.equal([]);
  }

  before(async () => {
    await buildWeb();
    serviceUrl = currentHarness().service.url;
    origin = new URL(serviceUrl).origin;
    browser = await launchChromium();
    user = await newUser();
    project = await mergeProject(user);
    const decision = decisionOut(project.projectId, { capture_text: 'db keeps the retries' });
    decisionId = decision.id;
    await seedDecisions([decision]);
    const parts = {
      app: node('app', { inputs: [port('in')], outputs: [port('out')] }, { kind: 'boundary' }),
      db: node(
        'db',
        { inputs: [port('in')], outputs: [port('out')], config: [port('retries')] },
        {},
        { source_decisions: [decisionId] },
      ),
      payments: node(
        'payments',
        { inputs: [port('charge', 'money')] },
        {},
        { is_external: true, external_kind: 'http_api' },
      ),
    };
    const inner = {
      core: node(
        'core',
        { inputs: [port('in')], outputs: [port('out')] },
        { parent_id: parts.app.seeded.id },
      ),
      check: node(
        'check',
        { inputs: [port('in')] },
        { parent_id: parts.app.seeded.id },
        { is_test_node: true },
      ),
    };
    for (const [k, v] of Object.entries({ ...parts, ...inner })) n[k] = v.seeded;
    const out = (s: Seeded, name: string) => s.ports.find((p) => p.name === name)!.id;
    await project.seed([
      ...Object.values(parts).map((p) => p.delta),
      ...Object.values(inner).map((p) => p.delta),
      addEdge(out(n.app, 'out'), out(n.db, 'in'), wires.appToDb),
      addEdge(out(n.db, 'out'), out(n.payments, 'charge'), wires.dbToPay),
      addEdge(out(n.core, 'out'), out(n.check, 'in'), wires.coreToCheck),
      addEdge(out(n.core, 'out'), out(n.db, 'in'), wires.coreToDb),
    ]);
    b2 = await project.fork('rename-db');
    const cache = node('cache', { inputs: [port('in')] });
    n.cache = cache.seeded;
    await b2.apply([
      { type: 'update_node_data', node_id: n.db.id, after: { name: 'store' } },
      cache.delta,
    ]);
    b3 = await project.fork('conflicting');
    await b3.apply([{ type: 'update_node_data', node_id: n.db.id, after: { name: 'database' } }]);
  });

  after(async () => {
    await browser?.close();
  });

  it('serves /app with a strict Content-Security-Policy', async () => {
    const res = await fetch(`${serviceUrl}/app`);
    expect(res.status).to.equal(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).to.contain("default-src 'none'");
    expect(csp).to.contain("script-src 'self'");
    expect(csp).to.contain("connect-src 'self'");
    expect(csp).not.to.contain('unsafe');
    expect(await res.text()).to.contain('/app/assets/app.js');
  });

  it('an invalid key shows the 401 message', async () => {
    const p = await page('gds_not_a_real_key');
    const alert = await p.waitForSelector('[role="alert"][data-status="401"]');
    expect(await alert.textContent()).to.contain('401');
    await screenshot(p, 'invalid-key');
    await axeClean(p, 'invalid key');
  });

  it('lists projects and branches', async () => {
    const p = await page();
    await p.waitForSelector('[data-testid="projects"]');
    const listed = (await user.api.get('/v1/projects')).body.projects as any[];
    const name = listed.find((x) => x.id === project.projectId).name;
    expect(await p.textContent('[data-testid="projects"]')).to.contain(name);
    await screenshot(p, 'projects');
    await axeClean(p, 'projects');
    await go(p, serviceUrl, `#/p/${project.projectId}`);
    await p.waitForSelector('[data-testid="branches"]');
    const text = await p.textContent('[data-testid="branches"]');
    for (const name of ['main', 'rename-db', 'conflicting']) expect(text).to.contain(name);
    await screenshot(p, 'branches');
    await axeClean(p, 'branches');
  });

  it('renders main at its top level with every node, port label and wire, and opens a boundary in place', async () => {
    const p = await page();
    await go(p, serviceUrl, `#/p/${project.projectId}/b/main/graph`);
    await graphReady(p);
    const top = [n.app, n.db, n.payments];
    for (const s of top) {
      const card = await p.waitForSelector(sel(s.id));
      const text = (await card.textContent()) ?? '';
      expect(text).to.contain(s.name);
      for (const pt of s.ports)
        expect(text, `${s.name} ${pt.name}`).to.contain(`${pt.name}:${pt.type}`);
    }
    expect(await p.$$('.react-flow__node')).to.have.length(top.length);
    await p.waitForSelector(wireSel(wires.appToDb), { state: 'attached' });
    await p.waitForSelector(wireSel(wires.dbToPay), { state: 'attached' });
    const paths = await p.$$eval('.react-flow__edge-path', (els) =>
      els.map((e) => e.getAttribute('d')),
    );
    expect(
      paths.every((d) => d && d.startsWith('M')),
      String(paths),
    ).to.equal(true);
    expect(await p.$$('.react-flow__edge')).to.have.length(2);
    expect(await p.textContent(sel(n.app.id))).to.contain('boundary');
    expect(await p.$$(`${sel(n.payments.id)} .badge-external`)).to.have.length(1);
    await screenshot(p, 'graph-top-level');
    await axeClean(p, 'graph (top level)');

    await p.click(`${sel(n.app.id)} button[aria-expanded="false"]`);
    await p.waitForSelector(sel(n.core.id));
    await p.waitForSelector(sel(n.check.id));
    await p.waitForSelector(wireSel(wires.coreToCheck), { state: 'attached' });
    await p.waitForSelector(wireSel(wires.coreToDb), { state: 'attached' });
    expect(await p.$$('.react-flow__node')).to.have.length(5);
    expect(await p.$$('.react-flow__edge')).to.have.length(4);
    expect(await p.$$(`${sel(n.check.id)} .badge-test`)).to.have.length(1);
    for (const s of [n.core, n.check])
      for (const pt of s.ports)
        expect(await p.textContent(sel(s.id))).to.contain(`${pt.name}:${pt.type}`);
    await screenshot(p, 'graph-expanded');
    await axeClean(p, 'graph (boundary open)');
  });

  it('finding a node by name inside an unopened boundary asks the service and shows it on the graph', async () => {
    const p = await page();
    await go(p, serviceUrl, `#/p/${project.projectId}/b/main/graph`);
    await graphReady(p);
    // only the top level is read: "check" sits inside app, which is closed
    expect(await p.$$(sel(n.check.id))).to.have.length(0);
    await p.fill('#node-search', 'CHEC');
    const hit = await p.waitForSelector('[aria-label="Matching nodes"] button >> text=check');
    await hit.click();
    await p.waitForSelector(sel(n.check.id));
    await p.waitForSelector('[data-testid="node-panel"] >> text=check');
    expect(await p.$$(`${sel(n.app.id)} button[aria-expanded="true"]`)).to.have.length(1);
    await screenshot(p, 'search-found');
    await axeClean(p, 'search result revealed');
  });

  it('selecting a node shows its panel; findings mark their nodes', async () => {
    const p = await page();
    await go(p, serviceUrl, `#/p/${project.projectId}/b/main/graph`);
    await graphReady(p);
    // keyboard: Tab-focusable nodes, Enter selects
    await p.focus(sel(n.payments.id));
    await p.keyboard.press('Enter');
    await p.waitForSelector('[data-testid="node-panel"] >> text=payments');
    expect(await p.textContent('[data-testid="node-panel"]')).to.contain('charge:money');
    await p.click(`${sel(n.db.id)} .card-name`);
    const panel = await p.waitForSelector('[data-testid="node-panel"] >> text=retries:int');
    expect(panel).to.not.equal(null);
    const text = (await p.textContent('[data-testid="node-panel"]')) ?? '';
    expect(text).to.contain('db');
    expect(text).to.contain('behavior');
    expect(text).to.contain('retries:int');
    await screenshot(p, 'node-panel');
    await axeClean(p, 'node panel');

    await p.click('text=Show findings');
    await p.waitForSelector('[data-testid="findings"]');
    // app's input port has no incoming wire: unsatisfied_input on a port of app
    await p.waitForSelector(`${sel(n.app.id)} .card.finding-error`);
    await screenshot(p, 'findings');
    await axeClean(p, 'findings');

    // the node's source decision links to the decision ledger
    await p.click(`[data-testid="node-panel"] a[href$="/decisions/${decisionId}"]`);
    const decision = await p.waitForSelector('[data-testid="decision"]');
    expect(await decision.textContent()).to.contain('db keeps the retries');
    await screenshot(p, 'decision-ledger');
    await axeClean(p, 'decision ledger');
  });

  it('the diff view colours exactly the added and changed nodes', async () => {
    const p = await page();
    await go(p, serviceUrl, `#/p/${project.projectId}/b/${b2.id}/diff`);
    await graphReady(p);
    await p.waitForSelector('[data-testid="diff"]');
    // the colours are classes on the cards: a card in the page is enough (under load React
    // Flow may not have measured it yet, and it stays hidden until then)
    await p.waitForSelector(`${sel(n.cache.id)} .card.diff-added`, { state: 'attached' });
    expect(await markedNodes(p, 'diff-added')).to.deep.equal([n.cache.id]);
    expect(await markedNodes(p, 'diff-changed')).to.deep.equal([n.db.id]);
    expect(await p.textContent('[data-testid="diff"]')).to.contain('store: name');
    await screenshot(p, 'diff');
    await axeClean(p, 'diff');
  });

  it('the merge preview shows the conflicts of a conflicting branch on the graph', async () => {
    await b2.mergeOk(); // main renames db to store; b3 renamed it to database
    const p = await page();
    await go(p, serviceUrl, `#/p/${project.projectId}/b/${b3.id}/merge`);
    await graphReady(p);
    const list = await p.waitForSelector('[data-testid="conflicts"]');
    expect(await list.textContent()).to.contain('modified_on_both');
    await p.waitForSelector(`${sel(n.db.id)} .card.conflict`, { state: 'attached' });
    expect(await markedNodes(p, 'conflict')).to.deep.equal([n.db.id]);
    await screenshot(p, 'merge-preview');
    await axeClean(p, 'merge preview');
  });

  it('the change trail lists the branch batches', async () => {
    const p = await page();
    await go(p, serviceUrl, `#/p/${project.projectId}/b/${b3.id}/changes`);
    const trail = await p.waitForSelector('[data-testid="changes"]');
    const text = (await trail.textContent()) ?? '';
    expect(text).to.contain('version 1');
    expect(text).to.contain('1 update_node_data');
    await screenshot(p, 'changes');
    await axeClean(p, 'change trail');
  });

  it('a selected node shows its history: the merges that touched it and who last set each field', async () => {
    const p = await page();
    await go(p, serviceUrl, `#/p/${project.projectId}/b/main/graph`);
    await graphReady(p);
    // db was added by the seed's merge (main's version 1) and renamed store by b2's (2)
    await p.click(`${sel(n.db.id)} .card-name`);
    const history = await p.waitForSelector('[data-testid="node-history"] >> text=version 2');
    expect(history).to.not.equal(null);
    const text = (await p.textContent('[data-testid="node-history"]')) ?? '';
    expect(text).to.contain('version 1');
    expect(text).to.contain('merge · changed (name)');
    expect(text).to.contain('merge · added');
    const fields = (await p.textContent('[data-testid="node-history-fields"]')) ?? '';
    expect(fields).to.contain('name: version 2');
    expect(fields).to.contain('kind: version 1');
    await screenshot(p, 'node-history');
    await axeClean(p, 'node history');
  });

  it('a viewer-only key browses main and sees no write control', async () => {
    const viewer = await newUser({ scopes: [] });
    await grant(project.projectId, viewer, 'viewer');
    const p = await page(viewer.token);
    await p.waitForSelector('[data-testid="projects"]');
    await go(p, serviceUrl, `#/p/${project.projectId}`);
    await p.waitForSelector('[data-testid="branches"]');
    expect(await p.textContent('[data-testid="branches"]')).not.to.contain('conflicting');
    await go(p, serviceUrl, `#/p/${project.projectId}/b/main/graph`);
    await graphReady(p);
    await p.waitForSelector(sel(n.db.id));
    const controls = await p.$$eval('button, a, input, select, textarea', (els) =>
      els.map(
        (e) => `${e.tagName} ${e.getAttribute('type') ?? ''} ${(e.textContent ?? '').trim()}`,
      ),
    );
    const writes = controls.filter((c) =>
      /\b(apply|delete|discard|rename|fork|save|edit|create|import|merge now|archive)\b/i.test(c),
    );
    expect(writes, controls.join(' | ')).to.deep.equal([]);
    expect(await p.$$('[contenteditable="true"], textarea, select')).to.have.length(0);
    await screenshot(p, 'viewer-key-main');
    await axeClean(p, 'viewer key');
  });

  it('no request left the service and the key never appeared in a URL', () => {
    const all = pages.flatMap((t) => t.urls);
    expect(all.length).to.be.greaterThan(10);
    expect(
      pages.flatMap((t) => t.outside),
      'requests outside the service',
    ).to.deep.equal([]);
    for (const token of [user.token]) {
      expect(all.filter((u) => u.includes(token))).to.deep.equal([]);
    }
    const errors = pages.flatMap((t) => t.errors).filter((e) => !/401|Unauthorized/.test(e));
    expect(errors, 'page errors').to.deep.equal([]);
  });
});
