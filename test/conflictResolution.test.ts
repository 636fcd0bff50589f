/**
 * Resolving merge conflicts in the web viewer (rebaseBranch from the merge preview),
 * in headless chromium: a branch that conflicts with main in every way a rebase can
 * resolve (modified_on_both, reparent_conflict, name_collision, rewired_on_both,
 * deleted_on_main, deleted_on_branch_modified_on_main) is opened on its merge preview;
 * the choices made (main's side, the branch's, own values) are previewed by a dry run,
 * first with conflicts left, then with the counts and findings the service answers for
 * the same resolutions; applying the rebase leaves a merge preview with no conflict and
 * the branch holding exactly the choices. A key without graph:write sees the choices
 * disabled with the reason. axe-core finds no serious or critical violation; a
 * screenshot of each state is saved under .run/screenshots/.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildWeb } from '../web/build';
import { addEdge, addNode, port, uuid } from './support/graphBuilders';
import { currentHarness, newKeyFor, newUser, TestUser } from './support/harness';
import { BranchHandle, mergeProject, MergeProject } from './support/mergeWorkspace';
import {
  Browser,
  go,
  launchChromium,
  openWithKey,
  screenshot,
  seriousViolations,
  TrackedPage,
  trackedPage,
} from './support/webBrowser';

/** A unit's fieldset, by the conflict's reason and (where resolved by field) the field. */
const unit = (reason: string, field = '') =>
  `[data-testid="resolution"][data-reason="${reason}"][data-field="${field}"]`;

describe('conflict resolution in the web viewer (rebaseBranch from the merge preview)', function () {
  this.timeout(300_000);
  let browser: Browser;
  let serviceUrl = '';
  let origin = '';
  let user: TestUser;
  let project: MergeProject;
  let b: BranchHandle;
  let c: BranchHandle;
  const pages: TrackedPage[] = [];
  const id = {
    alpha: uuid(),
    beta: uuid(),
    box1: uuid(),
    box2: uuid(),
    box3: uuid(),
    mover: uuid(),
    gammaMain: uuid(),
    gammaBranch: uuid(),
    doomed: uuid(),
    fading: uuid(),
    dst: uuid(),
  };
  const [o1, o2, o3, inp] = [port('o1'), port('o2'), port('o3'), port('in')];
  const wire = { base: uuid(), main: uuid(), branch: uuid() };

  async function page(token = user.token): Promise<Page> {
    const tracked = await trackedPage(browser, origin);
    pages.push(tracked);
    await openWithKey(tracked.page, serviceUrl, token);
    return tracked.page;
  }
  async function axeClean(p: Page, view: string): Promise<void> {
    expect(await seriousViolations(p), `axe on ${view}`).to.deep.equal([]);
  }
  async function openMerge(p: Page, branch: BranchHandle): Promise<void> {
    await go(p, serviceUrl, `#/p/${project.projectId}/b/${branch.id}/merge`);
    await p.waitForSelector('[data-testid="canvas"][data-ready="true"]', { timeout: 60_000 });
    await p.waitForSelector('[data-testid="resolver"]');
    await p.waitForSelector('text=Checking whether this key may rebase', { state: 'detached' });
  }

  before(async () => {
    await buildWeb();
    serviceUrl = currentHarness().service.url;
    origin = new URL(serviceUrl).origin;
    browser = await launchChromium();
    user = await newUser();
    project = await mergeProject(user);
    const node = (nid: string, name: string, extra: Record<string, unknown> = {}) =>
      addNode({ id: nid, ...extra, data: { name, description: 'base', ...(extra.data ?? {}) } });
    await project.seed([
      node(id.alpha, 'alpha'),
      node(id.beta, 'beta'),
      node(id.box1, 'box1', { kind: 'boundary' }),
      node(id.box2, 'box2', { kind: 'boundary' }),
      node(id.box3, 'box3', { kind: 'boundary' }),
      node(id.mover, 'mover'),
      node(id.doomed, 'doomed'),
      node(id.fading, 'fading'),
      node(uuid(), 'src1', { data: { outputs: [o1] } }),
      node(uuid(), 'src2', { data: { outputs: [o2] } }),
      node(uuid(), 'src3', { data: { outputs: [o3] } }),
      node(id.dst, 'dst', { data: { inputs: [inp] } }),
      addEdge(o1.id, inp.id, wire.base),
    ]);
    b = await project.fork('conflicting');
    c = await project.fork('read-only');
    const onMain = await project.fork('main-side');
    await onMain.apply([
      {
        type: 'update_node_data',
        node_id: id.alpha,
        after: { name: 'alpha-main', description: 'main' },
      },
      { type: 'update_node_data', node_id: id.beta, after: { description: 'beta on main' } },
      { type: 'reparent_node', node_id: id.mover, parent_id: id.box1 },
      node(id.gammaMain, 'gamma'),
      { type: 'delete_edge', edge_id: wire.base },
      addEdge(o2.id, inp.id, wire.main),
      { type: 'delete_node', node_id: id.doomed },
      { type: 'update_node_data', node_id: id.fading, after: { description: 'main changed' } },
    ]);
    await onMain.mergeOk();
    await b.apply([
      {
        type: 'update_node_data',
        node_id: id.alpha,
        after: { name: 'alpha-branch', description: 'branch' },
      },
      { type: 'update_node_data', node_id: id.beta, after: { description: 'beta on branch' } },
      { type: 'reparent_node', node_id: id.mover, parent_id: id.box2 },
      node(id.gammaBranch, 'gamma'),
      { type: 'delete_edge', edge_id: wire.base },
      addEdge(o3.id, inp.id, wire.branch),
      { type: 'update_node_data', node_id: id.doomed, after: { description: 'still here' } },
      { type: 'delete_node', node_id: id.fading },
    ]);
    await c.apply([{ type: 'update_node_data', node_id: id.alpha, after: { description: 'c' } }]);
  });

  after(async () => {
    await browser?.close();
  });

  /** The resolutions the test chooses in the viewer, as the API takes them. */
  function chosen(): unknown[] {
    const r = (
      reason: string,
      kind: string,
      eid: string,
      field: string | null,
      choice: string,
      value?: unknown,
    ) => ({
      reason,
      entity_kind: kind,
      entity_id: eid,
      ...(field !== null && { field }),
      choice,
      ...(value !== undefined && { value }),
    });
    return [
      r('modified_on_both', 'node', id.alpha, 'description', 'value', 'resolved by hand'),
      r('modified_on_both', 'node', id.alpha, 'name', 'branch'),
      r('modified_on_both', 'node', id.beta, 'description', 'main'),
      r('reparent_conflict', 'node', id.mover, 'parent_id', 'value', id.box3),
      r('name_collision', 'node', id.gammaBranch, 'name', 'value', 'gamma-b'),
      r('rewired_on_both', 'port', inp.id, 'source_handle', 'value', wire.main),
      r('deleted_on_main', 'node', id.doomed, null, 'value', 'keep'),
      r('deleted_on_branch_modified_on_main', 'node', id.fading, null, 'value', 'drop'),
    ];
  }

  it('lists a choice per conflict unit; a preview of some choices lists the conflicts left', async () => {
    const preview = await b.preview();
    const reasons = preview.conflicts.map((x: any) => x.reason).sort();
    expect(reasons).to.deep.equal([
      'deleted_on_branch_modified_on_main',
      'deleted_on_main',
      'modified_on_both',
      'modified_on_both',
      'name_collision',
      'reparent_conflict',
      'rewired_on_both',
    ]);
    const p = await page();
    await openMerge(p, b);
    // modified_on_both on alpha is resolved field by field: eight units for seven conflicts
    expect(await p.$$('[data-testid="resolution"]')).to.have.length(8);
    expect(await p.$$('[data-testid="resolution"][disabled]')).to.have.length(0);
    expect(await p.$$('[data-testid="rebase-access"]')).to.have.length(0);
    // keyboard: the branch's side of alpha's name, chosen with Space
    await p.focus(`${unit('modified_on_both', 'name')} input[value="branch"]`);
    await p.keyboard.press('Space');
    expect(await p.isChecked(`${unit('modified_on_both', 'name')} input[value="branch"]`)).to.equal(
      true,
    );
    await p.click('button:has-text("Preview resolutions")');
    const left = await p.waitForSelector('[data-testid="rebase-left"]');
    expect(await left.textContent()).to.contain('7 conflict(s) left unresolved');
    expect(await p.isDisabled('button:has-text("Apply the rebase")')).to.equal(true);
    await screenshot(p, 'conflict-resolution-left');
    await axeClean(p, 'conflict resolution (conflicts left)');
  });

  it('previews every kind of resolution with the counts and findings of a dry run, applies it, and the merge preview clears', async () => {
    const p = await page();
    await openMerge(p, b);
    const desc = unit('modified_on_both', 'description');
    // alpha's description: an own value (typing chooses it); beta's: main's side
    const alphaDesc = `${desc}:has-text("alpha")`;
    await p.fill(`${alphaDesc} input[type="text"]`, 'resolved by hand');
    expect(await p.isChecked(`${alphaDesc} input[value="value"]`)).to.equal(true);
    await p.check(`${desc}:has-text("beta") input[value="main"]`);
    await p.check(`${unit('modified_on_both', 'name')} input[value="branch"]`);
    await p.selectOption(`${unit('reparent_conflict', 'parent_id')} select`, id.box3);
    await p.fill(`${unit('name_collision', 'name')} input[type="text"]`, 'gamma-b');
    const wires = unit('rewired_on_both', 'source_handle');
    await p.waitForSelector(`${wires} select option[value="${wire.main}"]`, { state: 'attached' });
    const labels = await p.$$eval(`${wires} select option`, (os) => os.map((o) => o.textContent));
    expect(labels).to.include("from src2.o2 (main's)");
    expect(labels).to.include("from src3.o3 (branch's)");
    expect(await p.textContent(wires)).to.contain("Main's side: wired from src2.o2");
    await p.selectOption(`${wires} select`, wire.main);
    await p.check(`${unit('deleted_on_main')} input[value="keep"]`);
    await p.check(`${unit('deleted_on_branch_modified_on_main')} input[value="drop"]`);

    // a name longer than the node model takes: refused (invalid_resolution) on its conflict
    const collision = unit('name_collision', 'name');
    await p.fill(`${collision} input[type="text"]`, 'g'.repeat(201));
    await p.click('button:has-text("Preview resolutions")');
    const refused = await p.waitForSelector(`${collision}.resolution-invalid [role="alert"]`);
    expect(await refused.textContent()).to.contain('resolutions[');
    expect(await p.getAttribute(collision, 'aria-describedby')).to.contain('-problem');
    expect(await p.isDisabled('button:has-text("Apply the rebase")')).to.equal(true);
    await screenshot(p, 'conflict-resolution-refused');
    await axeClean(p, 'conflict resolution (a refused value)');
    await p.fill(`${collision} input[type="text"]`, 'gamma-b');
    expect(await p.$$(`${collision}.resolution-invalid`)).to.have.length(0);

    await p.click('button:has-text("Preview resolutions")');
    await p.waitForSelector('[data-testid="rebase-preview"]');
    // the counts and findings are the service's dry run of these same resolutions
    const dry = await user.api.post(`/v1/branches/${b.id}/rebase`, {
      expected_version: b.version,
      resolutions: chosen(),
      dry_run: true,
    });
    expect(dry.status, JSON.stringify(dry.body)).to.equal(200);
    const c = dry.body.counts;
    const counts = await p.textContent('[data-testid="rebase-counts"]');
    expect(counts).to.equal(
      `nodes +${c.nodes.added} ~${c.nodes.changed} −${c.nodes.removed} · ` +
        `ports +${c.ports.added} ~${c.ports.changed} −${c.ports.removed} · ` +
        `wires +${c.edges.added} ~${c.edges.changed} −${c.edges.removed}`,
    );
    const shown = (await p.textContent('[data-testid="rebase-preview"]')) ?? '';
    expect(shown).to.contain(`Findings added (${dry.body.findings_added.length})`);
    expect(shown).to.contain(`Findings cleared (${dry.body.findings_cleared.length})`);
    for (const f of [...dry.body.findings_added, ...dry.body.findings_cleared])
      expect(shown).to.contain(`${f.code}: ${f.message}`);
    await screenshot(p, 'conflict-resolution-preview');
    await axeClean(p, 'conflict resolution (preview)');

    await p.click('button:has-text("Apply the rebase")');
    const notice = await p.waitForSelector('[data-testid="rebase-notice"]');
    expect(await notice.textContent()).to.contain(`main's version ${dry.body.main_branch.version}`);
    const merge = await p.waitForSelector('[data-testid="merge-preview"] >> text=with no conflict');
    expect(await merge.textContent()).to.contain('Would merge (fast_forward) with no conflict.');
    expect(await p.$$('[data-testid="resolver"]')).to.have.length(0);
    await screenshot(p, 'conflict-resolution-applied');
    await axeClean(p, 'conflict resolution (applied)');

    // the branch holds exactly the choices
    const preview = await b.preview();
    expect(preview).to.deep.include({ can_merge: true, conflicts: [], mode: 'fast_forward' });
    const graph = await b.graph();
    const byId = new Map<string, any>(graph.nodes.map((n: any) => [n.id, n]));
    expect(byId.get(id.alpha).data).to.deep.include({
      name: 'alpha-branch',
      description: 'resolved by hand',
    });
    expect(byId.get(id.beta).data.description).to.equal('beta on main');
    expect(byId.get(id.mover).parent_id).to.equal(id.box3);
    expect(byId.get(id.gammaBranch).data.name).to.equal('gamma-b');
    expect(byId.get(id.gammaMain).data.name).to.equal('gamma');
    expect(byId.get(id.doomed).data.description).to.equal('still here');
    expect(byId.has(id.fading)).to.equal(false);
    const into = graph.edges.filter((e: any) => e.target_handle === inp.id).map((e: any) => e.id);
    expect(into).to.deep.equal([wire.main]);
  });

  it('a key without graph:write sees the choices disabled with the reason', async () => {
    const readOnly = await newKeyFor(user, { scopes: [] });
    const p = await page(readOnly.token);
    await openMerge(p, c);
    const note = await p.waitForSelector('[data-testid="rebase-access"]');
    expect(await note.textContent()).to.contain('needs the graph:write scope');
    const units = await p.$$('[data-testid="resolution"]');
    expect(units).to.have.length(1);
    expect(await p.$$('[data-testid="resolution"][disabled]')).to.have.length(1);
    expect(await units[0].getAttribute('aria-describedby')).to.contain('rebase-access');
    expect(
      await p.isDisabled(`${unit('modified_on_both', 'description')} input[value="main"]`),
    ).to.equal(true);
    expect(await p.isDisabled('button:has-text("Preview resolutions")')).to.equal(true);
    expect(await p.isDisabled('button:has-text("Apply the rebase")')).to.equal(true);
    await screenshot(p, 'conflict-resolution-read-only');
    await axeClean(p, 'conflict resolution (read-only key)');
    expect((await c.preview()).conflicts).to.have.length(1); // nothing was written
  });

  it('no request left the service and the key never appeared in a URL', () => {
    const all = pages.flatMap((t) => t.urls);
    expect(
      pages.flatMap((t) => t.outside),
      'requests outside the service',
    ).to.deep.equal([]);
    expect(all.filter((u) => u.includes(user.token))).to.deep.equal([]);
    // answers the views expect: 409 and 422 refusals of a dry run, and the 404 of revealing
    // a conflict's node the branch deleted (it is on main only)
    const errors = pages.flatMap((t) => t.errors).filter((e) => !/\b(404|409|422)\b/.test(e));
    expect(errors, 'page errors').to.deep.equal([]);
  });
});
