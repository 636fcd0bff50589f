/**
 * The review step in the web viewer, in headless chromium (playwright-core): the
 * project's open change requests are listed from its branches; a change request's page
 * shows the diff and its comments on the graph, main's protection rules met or not, and
 * the findings; a reviewer approves with the button and the branch owner's page follows
 * from the project feed without a reload (then marks the approval stale when the branch
 * moves); the branch owner and a viewer-role member see the buttons disabled with the
 * reason, and a key the service refuses (403) is told why. The version slider shows an
 * earlier version's graph, and the diff between two versions colours what changed.
 * axe-core finds no serious or critical violation; screenshots go to .run/screenshots/.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildWeb } from '../web/build';
import { addEdge, addNode, port, uuid } from './support/graphBuilders';
import { currentHarness, grant, newKeyFor, newUser, TestUser } from './support/harness';
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

const RULES = { required_approvals: 1, no_error_findings: false, require_up_to_date: true };

describe('review step in the web viewer (headless chromium)', function () {
  this.timeout(300_000);
  let browser: Browser;
  let serviceUrl = '';
  let origin = '';
  let owner: TestUser; // the project's owner, who owns the branch under review
  let reviewer: TestUser; // an editor
  let viewer: TestUser; // a viewer-role member
  let project: MergeProject;
  let branch: BranchHandle;
  let crId = '';
  const ids = { api: uuid(), store: uuid(), cache: uuid(), temp: uuid() };
  const pages: TrackedPage[] = [];

  async function page(token: string): Promise<Page> {
    const tracked = await trackedPage(browser, origin);
    pages.push(tracked);
    await openWithKey(tracked.page, serviceUrl, token);
    await tracked.page.waitForSelector('[data-testid="projects"]');
    return tracked.page;
  }
  async function crPage(token: string): Promise<Page> {
    const p = await page(token);
    await go(p, serviceUrl, `#/p/${project.projectId}/change-requests/${crId}`);
    await p.waitForSelector('[data-testid="feed-state"][data-live="true"]', { timeout: 30_000 });
    await graphReady(p);
    return p;
  }
  async function axeClean(p: Page, view: string): Promise<void> {
    expect(await seriousViolations(p), `axe on ${view}`).to.deep.equal([]);
  }

  before(async () => {
    await buildWeb();
    serviceUrl = currentHarness().service.url;
    origin = new URL(serviceUrl).origin;
    browser = await launchChromium();
    [owner, reviewer, viewer] = [await newUser(), await newUser(), await newUser()];
    project = await mergeProject(owner);
    await grant(project.projectId, reviewer, 'editor');
    await grant(project.projectId, viewer, 'viewer');
    const [out, inp] = [port('out'), port('in')];
    await project.seed([
      addNode({ id: ids.api, data: { name: 'api', outputs: [out] } }),
      addNode({ id: ids.store, data: { name: 'store', inputs: [inp] } }),
      addEdge(out.id, inp.id),
    ]);
    const rules = await owner.api.put(`/v1/projects/${project.projectId}/protection-rules`, RULES);
    expect(rules.status, JSON.stringify(rules.body)).to.equal(200);
    branch = await project.fork('add-cache');
    await branch.apply([
      { type: 'update_node_data', node_id: ids.store, after: { name: 'orders' } },
      addNode({ id: ids.cache, data: { name: 'cache' } }),
      addNode({ id: ids.temp, data: { name: 'temp' } }),
    ]);
    const opened = await owner.api.post(`/v1/branches/${branch.id}/change-request`, {
      title: 'Cache the orders',
      description: 'Renames store to orders and adds a cache.',
    });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(201);
    crId = opened.body.change_request.id;
    // the reviewer's comments: one on store (on main too), one on temp (deleted next)
    const commented = await reviewer.api.post(`/v1/change-requests/${crId}/reviews`, {
      verdict: 'comment',
      comments: [
        { body: 'Why rename the store?', anchor: { kind: 'node', id: ids.store } },
        { body: 'Is temp needed?', anchor: { kind: 'node', id: ids.temp } },
      ],
    });
    expect(commented.status, JSON.stringify(commented.body)).to.equal(201);
    await branch.apply([{ type: 'delete_node', node_id: ids.temp }]);
  });

  afterEach(async () => {
    // each page follows the feed: close them so a key never holds more streams than allowed
    for (const t of pages) if (!t.page.isClosed()) await t.page.close();
  });

  after(async () => {
    await browser?.close();
  });

  it('lists the open change requests from the branches view and opens one', async () => {
    const p = await page(reviewer.token);
    await go(p, serviceUrl, `#/p/${project.projectId}`);
    await p.click('[data-testid="change-requests-link"]');
    const list = await p.waitForSelector('[data-testid="change-requests"]');
    expect(await list.textContent()).to.contain('Cache the orders');
    expect(await list.textContent()).to.contain('add-cache');
    await screenshot(p, 'change-requests');
    await axeClean(p, 'change requests');
    await p.click('[data-testid="change-requests"] a >> text=Cache the orders');
    await p.waitForSelector('#cr-title >> text=Cache the orders');
  });

  it("a reviewer's page: the diff and the comments on the branch under review, the rules, the findings; a comment on a deleted node keeps its recorded name", async () => {
    const p = await crPage(reviewer.token);
    // a reviewer reads the branch under review: the renamed store is marked changed and
    // carries its comment, the added cache is marked added
    await p.waitForSelector(`${sel(ids.store)} .card.diff-changed`, { state: 'attached' });
    await p.waitForSelector(`${sel(ids.cache)} .card.diff-added`, { state: 'attached' });
    await p.waitForSelector(`${sel(ids.store)} .card.commented`, { state: 'attached' });
    expect(await markedNodes(p, 'diff-changed')).to.deep.equal([ids.store]);
    expect(await markedNodes(p, 'commented')).to.deep.equal([ids.store]);
    expect(await p.textContent(sel(ids.store))).to.contain('comment: Why rename the store?');
    const rules = await p.waitForSelector('[data-testid="rules"]');
    const rulesText = (await rules.textContent()) ?? '';
    expect(rulesText).to.contain('0 of 1 required');
    expect(await p.textContent('[data-rule="required_approvals"]')).to.contain('Not met');
    expect(await p.textContent('[data-rule="up_to_date"]')).to.contain('Met');
    expect(await p.$$('[data-rule="no_error_findings"]')).to.have.length(0);
    await p.waitForSelector('[data-testid="merge-findings"]');
    const diff = (await p.textContent('[data-testid="diff"]')) ?? '';
    expect(diff).to.contain('orders: name'); // named as the branch shown calls it
    const reviews = (await p.textContent('[data-testid="reviews"]')) ?? '';
    expect(reviews).to.contain('Why rename the store?');
    // written on the branch's orders, the name the graph shown (the branch) still has
    expect(reviews).to.contain('on node orders at version 1');
    expect(reviews).not.to.contain('called store on the graph shown');
    const gone = await p.waitForSelector(`[data-anchor-id="${ids.temp}"]`);
    expect(await gone.textContent()).to.contain('temp');
    expect(await gone.textContent()).to.contain('not on the graph shown');
    // the buttons are the reviewer's to use
    expect(await p.isEnabled('button[data-verdict="approve"]')).to.equal(true);
    expect(await p.isEnabled('button[data-verdict="request_changes"]')).to.equal(true);
    await screenshot(p, 'change-request-reviewer');
    await axeClean(p, 'change request (reviewer)');
  });

  it("the reviewer approves with the button: the branch owner's page updates from the feed without a reload; the owner's buttons are disabled with the reason", async () => {
    const ownerPage = await crPage(owner.token);
    // the owner reads the branch itself: the deleted temp is gone, its comment keeps the name
    await ownerPage.waitForSelector(`${sel(ids.cache)} .card.diff-added`, { state: 'attached' });
    expect(await ownerPage.textContent(`[data-anchor-id="${ids.temp}"]`)).to.contain(
      'not on the graph shown',
    );
    for (const v of ['approve', 'request_changes'])
      expect(await ownerPage.isDisabled(`button[data-verdict="${v}"]`)).to.equal(true);
    expect(await ownerPage.textContent('[data-testid="review-why-not"]')).to.contain(
      'You own this branch',
    );
    await screenshot(ownerPage, 'change-request-owner');
    await axeClean(ownerPage, 'change request (branch owner)');
    await ownerPage.evaluate('window.__notReloaded = true');
    const readsBefore = Number(
      await ownerPage.getAttribute('[data-testid="change-request"]', 'data-reads'),
    );

    const p = await crPage(reviewer.token);
    await p.fill('#review-body', 'Looks right.');
    await p.click('button[data-verdict="approve"]');
    await p.waitForSelector('[data-testid="approvals"] >> text=1 of 1 required');
    expect(await p.inputValue('#review-body')).to.equal('');

    // the owner's page: the approval arrives through the feed
    await ownerPage.waitForSelector('[data-testid="approvals"] >> text=1 of 1 required');
    await ownerPage.waitForSelector('[data-rule="required_approvals"] >> text=Met');
    expect(await ownerPage.evaluate('window.__notReloaded')).to.equal(true);
    const readsAfter = Number(
      await ownerPage.getAttribute('[data-testid="change-request"]', 'data-reads'),
    );
    expect(readsAfter).to.be.greaterThan(readsBefore);
    expect(await ownerPage.textContent('[data-testid="reviews"]')).to.contain('Looks right.');
    await screenshot(ownerPage, 'change-request-approved-live');

    // the branch moves: the owner's page marks the approval stale, live too
    const later = uuid();
    await branch.apply([addNode({ id: later, data: { name: 'later' } })]);
    await ownerPage.waitForSelector('[data-testid="stale"]');
    // and reads the branch's graph again: the new node is on it, marked added
    await ownerPage.waitForSelector(`${sel(later)} .card.diff-added`, { state: 'attached' });
    await ownerPage.waitForSelector('[data-testid="approvals"] >> text=0 of 1 required');
    expect(await ownerPage.textContent('[data-testid="approvals"]')).to.contain('1 stale');
    expect(await ownerPage.evaluate('window.__notReloaded')).to.equal(true);
    await screenshot(ownerPage, 'change-request-stale');
    await axeClean(ownerPage, 'change request (stale approval)');
  });

  it('a viewer-role member sees the buttons disabled with the reason; a key the service refuses (403) is told why', async () => {
    const p = await crPage(viewer.token);
    for (const v of ['approve', 'request_changes'])
      expect(await p.isDisabled(`button[data-verdict="${v}"]`)).to.equal(true);
    const why = (await p.textContent('[data-testid="review-why-not"]')) ?? '';
    expect(why).to.contain('viewer');
    expect(await p.getAttribute('button[data-verdict="approve"]', 'aria-describedby')).to.equal(
      'review-why-not',
    );
    await screenshot(p, 'change-request-viewer');
    await axeClean(p, 'change request (viewer)');

    // an editor's key without graph:write: the role allows, the service answers 403
    const readOnly = await newKeyFor(reviewer, { scopes: [] });
    const q = await crPage(readOnly.token);
    await q.click('button[data-verdict="request_changes"]');
    const refused = await q.waitForSelector('[data-testid="review-why-not"] >> text=403');
    expect(await refused.textContent()).to.contain('insufficient_scope');
    expect(await q.isDisabled('button[data-verdict="approve"]')).to.equal(true);
    await axeClean(q, 'change request (refused)');
  });

  it("the version slider shows an earlier version's graph, on a branch and on main", async () => {
    const p = await page(owner.token);
    await go(p, serviceUrl, `#/p/${project.projectId}/b/${branch.id}/graph`);
    await graphReady(p);
    await p.waitForSelector(sel(ids.cache));
    const head = branch.version;
    expect(await p.getAttribute('#version-slider', 'max')).to.equal(String(head));
    await p.focus('#version-slider');
    await p.keyboard.press('Home'); // version 0: the fork point, main as it was
    await p.waitForSelector('[data-testid="graph-version"] >> text=version 0 (pinned');
    await graphReady(p);
    await p.waitForSelector(sel(ids.store));
    expect(await p.$$(sel(ids.cache))).to.have.length(0);
    expect(await p.textContent(`${sel(ids.store)} .card-name`)).to.equal('store');
    expect(await p.inputValue('#version-slider')).to.equal('0');
    await screenshot(p, 'version-slider');
    await axeClean(p, 'graph pinned at a version');
    await p.click('text=Back to the head');
    await p.waitForSelector(sel(ids.cache));
    expect(await p.textContent(`${sel(ids.store)} .card-name`)).to.equal('orders');

    await go(p, serviceUrl, `#/p/${project.projectId}/b/main/graph`);
    await graphReady(p);
    await p.waitForSelector(sel(ids.store));
    await p.focus('#version-slider');
    await p.keyboard.press('ArrowLeft'); // main's version 0: before the seed was merged
    await p.waitForSelector('[data-testid="graph-version"] >> text=version 0 (pinned');
    await graphReady(p);
    expect(await p.$$('.react-flow__node')).to.have.length(0);
  });

  it('the diff between two versions colours what changed', async () => {
    const p = await page(owner.token);
    await go(p, serviceUrl, `#/p/${project.projectId}/b/${branch.id}/versions/v/1`);
    await graphReady(p);
    await p.selectOption('#from-version', '0');
    await p.waitForSelector('[data-testid="diff"] >> text=from version 0 to 1');
    await p.waitForSelector(`${sel(ids.cache)} .card.diff-added`, { state: 'attached' });
    expect(await markedNodes(p, 'diff-added')).to.deep.equal([ids.cache, ids.temp].sort());
    expect(await markedNodes(p, 'diff-changed')).to.deep.equal([ids.store]);
    expect(await p.textContent('[data-testid="diff"]')).to.contain('orders: name');
    await screenshot(p, 'version-diff');
    await axeClean(p, 'diff between versions');
    // from 1 to 2: temp was deleted, listed among the removed by its id
    await go(p, serviceUrl, `#/p/${project.projectId}/b/${branch.id}/versions/v/2`);
    await graphReady(p);
    await p.waitForSelector('[data-testid="diff"] >> text=from version 1 to 2');
    const next = (await p.textContent('[data-testid="diff"]')) ?? '';
    expect(next).to.contain('at version 1 only');
    expect(next).to.contain(ids.temp);
    expect(await markedNodes(p, 'diff-added')).to.deep.equal([]);
  });

  it('no request left the service, the key never appeared in a URL, and no page error', () => {
    const all = pages.flatMap((t) => t.urls);
    expect(pages.flatMap((t) => t.outside)).to.deep.equal([]);
    for (const token of [owner.token, reviewer.token, viewer.token])
      expect(all.filter((u) => u.includes(token))).to.deep.equal([]);
    // answers the pages show rather than errors of the pages: the refused review's 403, and
    // the 404 of a commented node the branch has since deleted (its comment keeps its name)
    const errors = pages.flatMap((t) => t.errors).filter((e) => !/status of (403|404)/.test(e));
    expect(errors, 'page errors').to.deep.equal([]);
  });
});
