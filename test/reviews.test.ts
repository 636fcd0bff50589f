/**
 * Change requests, reviews and main's protection rules through HTTP (openChangeRequest,
 * getChangeRequest, listChangeRequests, reviewChangeRequest, setProtectionRules,
 * mergeBranch's merge_blocked): the whole review step, and who may do each part of it.
 */
import { expect } from 'chai';
import { grant, newKeyFor, newUser, TestUser } from './support/harness';
import { addNode, uuid } from './support/graphBuilders';
import { BranchHandle, branchHandle, mergeProject, MergeProject } from './support/mergeWorkspace';

const RULES = { required_approvals: 1, no_error_findings: true, require_up_to_date: true };

async function openRequest(user: TestUser, branchId: string, title = 'Store orders') {
  const res = await user.api.post(`/v1/branches/${branchId}/change-request`, {
    title,
    description: 'Adds the order store.',
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.change_request;
}

async function review(user: TestUser, crId: string, body: Record<string, unknown>) {
  return user.api.post(`/v1/change-requests/${crId}/reviews`, body);
}

async function readRequest(user: TestUser, crId: string) {
  const res = await user.api.get(`/v1/change-requests/${crId}`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/** A project with an editor and a viewer, and an owner's branch with one node. */
async function team(): Promise<{
  p: MergeProject;
  owner: TestUser;
  editor: TestUser;
  viewer: TestUser;
  branch: BranchHandle;
  nodeId: string;
}> {
  const owner = await newUser();
  const [editor, viewer] = [await newUser(), await newUser()];
  const p = await mergeProject(owner);
  await grant(p.projectId, editor, 'editor');
  await grant(p.projectId, viewer, 'viewer');
  const branch = await p.fork();
  const nodeId = uuid();
  await branch.apply([addNode({ id: nodeId, data: { name: 'orderStore' } })]);
  return { p, owner, editor, viewer, branch, nodeId };
}

describe('change requests and reviews', function () {
  this.timeout(120_000);

  it('the workflow: open, comment on a node, approve, the branch moves (stale), merge blocked, approve again, merge (merged)', async () => {
    const { p, owner, editor, viewer, branch, nodeId } = await team();
    const set = await owner.api.put(`/v1/projects/${p.projectId}/protection-rules`, RULES);
    expect(set.status, JSON.stringify(set.body)).to.equal(200);
    expect(set.body.rules).to.deep.equal(RULES);

    const cr = await openRequest(owner, branch.id);
    expect(cr).to.include({ state: 'open', branch_id: branch.id, owner_id: owner.userId });

    // a viewer comments on the node, anchored at the branch's current version
    const comment = await review(viewer, cr.id, {
      verdict: 'comment',
      comments: [{ body: 'Should this be a state node?', anchor: { kind: 'node', id: nodeId } }],
    });
    expect(comment.status, JSON.stringify(comment.body)).to.equal(201);
    const anchored = comment.body.review.comments[0];
    expect(anchored.anchor).to.deep.equal({
      kind: 'node',
      id: nodeId,
      version: 1,
      name: 'orderStore',
    });

    const approved = await review(editor, cr.id, { verdict: 'approve', body: 'Looks right.' });
    expect(approved.status, JSON.stringify(approved.body)).to.equal(201);
    expect(approved.body.review).to.include({
      verdict: 'approve',
      branch_version: 1,
      stale: false,
    });

    let read = await readRequest(viewer, cr.id);
    expect(read.approvals).to.deep.equal({ required: 1, current: 1, stale: 0 });
    expect(read.diff.nodes.added).to.deep.equal([nodeId]);
    expect(read.preview.can_merge).to.equal(true);
    expect(read.preview.rules.map((r: any) => [r.rule, r.met])).to.deep.equal([
      ['required_approvals', true],
      ['no_error_findings', true],
      ['up_to_date', true],
    ]);

    // the branch moves on: the approval is of version 1, now stale; the node is renamed
    await branch.apply([{ type: 'update_node_data', node_id: nodeId, after: { name: 'orders' } }]);
    read = await readRequest(viewer, cr.id);
    expect(read.approvals).to.deep.equal({ required: 1, current: 0, stale: 1 });
    const byVerdict = Object.fromEntries(read.reviews.map((r: any) => [r.verdict, r]));
    expect(byVerdict.approve.stale).to.equal(true);
    // the anchor still says what the node was called when the comment was written
    expect(byVerdict.comment.comments[0].anchor.name).to.equal('orderStore');
    expect(read.preview.can_merge).to.equal(false);

    const blocked = await branch.merge();
    expect(blocked.status).to.equal(409);
    expect(blocked.body.detail.code).to.equal('merge_blocked');
    expect(blocked.body.detail.unmet_rules.map((r: any) => r.rule)).to.deep.equal([
      'required_approvals',
    ]);

    const again = await review(editor, cr.id, { verdict: 'approve' });
    expect(again.body.review.branch_version).to.equal(2);
    const merged = await branch.mergeOk();
    expect(merged.branch.status).to.equal('merged');
    read = await readRequest(viewer, cr.id);
    expect(read.change_request.state).to.equal('merged');
    expect(read.change_request.merged_at).to.be.a('string');
    expect(read.diff).to.equal(null);
    expect(read.preview).to.equal(null);

    const late = await review(editor, cr.id, { verdict: 'approve' });
    expect(late.status).to.equal(409);
    expect(late.body.detail.code).to.equal('change_request_not_open');
  });

  it('the branch owner cannot approve or request changes on their own change request, but may reply', async () => {
    const { owner, viewer, branch } = await team();
    const cr = await openRequest(owner, branch.id);
    for (const verdict of ['approve', 'request_changes']) {
      const res = await review(owner, cr.id, { verdict });
      expect(res.status).to.equal(403);
      expect(res.body.detail.code).to.equal('own_change_request');
    }
    const asked = await review(viewer, cr.id, { verdict: 'comment', comments: [{ body: 'why?' }] });
    const reply = await review(owner, cr.id, {
      verdict: 'comment',
      comments: [{ body: 'because', in_reply_to: asked.body.review.comments[0].id }],
    });
    expect(reply.status, JSON.stringify(reply.body)).to.equal(201);
    expect(reply.body.review.comments[0].in_reply_to).to.equal(asked.body.review.comments[0].id);
    const wrong = await review(owner, cr.id, {
      verdict: 'comment',
      comments: [{ body: 'x', in_reply_to: uuid() }],
    });
    expect(wrong.status).to.equal(422);
    expect(wrong.body.detail.code).to.equal('reply_not_found');
  });

  it('getChangeRequest tells each reader their role and whether they own the branch (caller), so a client knows who may approve', async () => {
    const { p, owner, editor, viewer } = await team();
    // the branch of an editor, so the project owner is a reviewer who is not the branch owner
    const fork = await editor.api.post(`/v1/projects/${p.projectId}/branches`, { name: 'e' });
    expect(fork.status, JSON.stringify(fork.body)).to.equal(201);
    const branchId = fork.body.branch.id;
    await branchHandle(editor, branchId).apply([addNode({ data: { name: 'x' } })]);
    const cr = await openRequest(editor, branchId);
    expect((await readRequest(editor, cr.id)).caller).to.deep.equal({
      role: 'editor',
      branch_owner: true,
    });
    expect((await readRequest(owner, cr.id)).caller).to.deep.equal({
      role: 'owner',
      branch_owner: false,
    });
    expect((await readRequest(viewer, cr.id)).caller).to.deep.equal({
      role: 'viewer',
      branch_owner: false,
    });
  });

  it('roles: comment any member, approve editor or owner, set rules the owner only, merge the branch owner only; strangers see nothing', async () => {
    const { p, owner, editor, viewer, branch } = await team();
    const stranger = await newUser();
    const cr = await openRequest(owner, branch.id);

    // comment: viewer, editor, project owner (the branch owner) alike
    for (const who of [viewer, editor, owner])
      expect((await review(who, cr.id, { verdict: 'comment', body: 'noted' })).status).to.equal(
        201,
      );
    // approve / request changes: a viewer is forbidden, an editor may
    const viewerApproves = await review(viewer, cr.id, { verdict: 'approve' });
    expect(viewerApproves.status).to.equal(403);
    expect(viewerApproves.body.detail.code).to.equal('forbidden');
    expect((await review(editor, cr.id, { verdict: 'request_changes' })).status).to.equal(201);
    // without graph:write nobody reviews
    const readOnlyKey = await newKeyFor(editor, { scopes: [] });
    const noScope = await review(readOnlyKey, cr.id, { verdict: 'comment', body: 'x' });
    expect(noScope.status).to.equal(403);
    expect(noScope.body.detail.code).to.equal('insufficient_scope');
    // a stranger: 404 everywhere
    expect((await review(stranger, cr.id, { verdict: 'comment', body: 'x' })).status).to.equal(404);
    expect((await stranger.api.get(`/v1/change-requests/${cr.id}`)).status).to.equal(404);
    expect((await stranger.api.get(`/v1/projects/${p.projectId}/change-requests`)).status).to.equal(
      404,
    );

    // set rules: the owner only; members get the 404 of an owner-only route
    for (const who of [editor, viewer, stranger]) {
      const res = await who.api.put(`/v1/projects/${p.projectId}/protection-rules`, RULES);
      expect(res.status).to.equal(404);
    }
    const ownerNoScope = await newKeyFor(owner, { scopes: [] });
    expect(
      (await ownerNoScope.api.put(`/v1/projects/${p.projectId}/protection-rules`, RULES)).status,
    ).to.equal(403);
    expect(
      (await owner.api.put(`/v1/projects/${p.projectId}/protection-rules`, RULES)).status,
    ).to.equal(200);
    // every member reads the rules
    for (const who of [editor, viewer]) {
      const res = await who.api.get(`/v1/projects/${p.projectId}/protection-rules`);
      expect(res.status).to.equal(200);
      expect(res.body.rules).to.deep.equal(RULES);
    }

    // merge: only the branch's owner; another member gets the 404 of a branch not theirs
    const asEditor = branchHandle(editor, branch.id, branch.version);
    expect((await asEditor.merge()).status).to.equal(404);
    // the editor's own branch: requested changes do not count, and the owner's branch needs an approval
    const blocked = await branch.merge();
    expect(blocked.status).to.equal(409);
    expect(blocked.body.detail.code).to.equal('merge_blocked');
    expect((await review(editor, cr.id, { verdict: 'approve' })).status).to.equal(201);
    expect((await branch.merge()).status).to.equal(200);
    // an editor's branch needs the approval of someone else: the owner approves it
    const editorBranch = await (async () => {
      const res = await editor.api.post(`/v1/projects/${p.projectId}/branches`, { name: 'e' });
      return branchHandle(editor, res.body.branch.id);
    })();
    await editorBranch.apply([addNode({ data: { name: 'e1' } })]);
    const ecr = await openRequest(editor, editorBranch.id);
    expect((await review(owner, ecr.id, { verdict: 'approve' })).status).to.equal(201);
    expect((await editorBranch.merge()).status).to.equal(200);
    // a viewer cannot open one (cannot fork either): its branch does not exist
  });

  it("members read a branch under review (graph, subtree, history, diff, preview) and see its batches in the feed, but only its owner changes it; closed, it is the owner's again", async () => {
    const { p, owner, editor, viewer, branch, nodeId } = await team();
    const reads = [
      `/v1/branches/${branch.id}/graph`,
      `/v1/branches/${branch.id}/top-level`,
      `/v1/branches/${branch.id}/subtree/${nodeId}?depth=1`,
      `/v1/branches/${branch.id}/node/${nodeId}/history`,
      `/v1/branches/${branch.id}/diff`,
      `/v1/branches/${branch.id}/merge-preview`,
    ];
    // before a change request, another member's branch is a missing one
    for (const path of reads) expect((await editor.api.get(path)).status, path).to.equal(404);

    const cr = await openRequest(owner, branch.id);
    for (const who of [editor, viewer])
      for (const path of reads) {
        const res = await who.api.get(path);
        expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(200);
      }
    const graph = await viewer.api.get(`/v1/branches/${branch.id}/graph`);
    expect(graph.body.nodes.map((n: any) => n.id)).to.include(nodeId);

    // changing it stays the owner's: every change answers a reviewer as before, 404
    const asEditor = branchHandle(editor, branch.id, branch.version);
    const intruder = await editor.api.post(`/v1/branches/${branch.id}/deltas`, {
      deltas: [addNode({ data: { name: 'intruder' } })],
      expected_version: branch.version,
    });
    expect(intruder.status).to.equal(404);
    expect(
      (
        await editor.api.post(`/v1/branches/${branch.id}/revert`, {
          version: 1,
          expected_version: branch.version,
        })
      ).status,
    ).to.equal(404);
    expect((await editor.api.patch(`/v1/branches/${branch.id}`, { name: 'mine' })).status).to.equal(
      404,
    );
    expect((await asEditor.merge()).status).to.equal(404);
    const open = await editor.api.post(`/v1/branches/${branch.id}/change-request`, { title: 't' });
    expect(open.status).to.equal(404);
    const unchanged = await owner.api.get(`/v1/branches/${branch.id}/graph`);
    expect(unchanged.body.branch.version).to.equal(branch.version);

    // the owner's batch while under review is in every member's feed
    const added = { body: await branch.apply([addNode({ data: { name: 'reviewed' } })]) };
    const feed = await viewer.api.get(`/v1/projects/${p.projectId}/events?after=0&limit=100`);
    expect(feed.status).to.equal(200);
    const batches = feed.body.events.filter(
      (e: any) => e.kind === 'batch_applied' && e.branch_id === branch.id,
    );
    expect(batches.map((e: any) => e.branch_version)).to.deep.equal([added.body.branch.version]);

    // discarding closes the change request: the branch is its owner's alone again
    const discarded = await owner.api.delete(
      `/v1/branches/${branch.id}?expected_version=${added.body.branch.version}`,
    );
    expect(discarded.status).to.equal(200);
    expect((await readRequest(viewer, cr.id)).change_request.state).to.equal('closed');
    expect((await viewer.api.get(`/v1/branches/${branch.id}/graph`)).status).to.equal(404);
  });

  it('at most one open change request per branch; the list pages the open ones; discarding closes it', async () => {
    const { p, owner, viewer, branch } = await team();
    const cr = await openRequest(owner, branch.id);
    const twice = await owner.api.post(`/v1/branches/${branch.id}/change-request`, {
      title: 'again',
    });
    expect(twice.status).to.equal(409);
    expect(twice.body.detail).to.include({
      code: 'change_request_exists',
      change_request_id: cr.id,
    });
    const other = await p.fork();
    await other.apply([addNode({ data: { name: 'n' } })]);
    const cr2 = await openRequest(owner, other.id, 'Second');

    const page1 = await viewer.api.get(`/v1/projects/${p.projectId}/change-requests?limit=1`);
    expect(page1.status).to.equal(200);
    expect(page1.body.change_requests.map((c: any) => c.id)).to.deep.equal([cr2.id]);
    expect(page1.body.has_more).to.equal(true);
    const page2 = await viewer.api.get(
      `/v1/projects/${p.projectId}/change-requests?limit=1&offset=1`,
    );
    expect(page2.body.change_requests.map((c: any) => c.id)).to.deep.equal([cr.id]);
    expect(page2.body.has_more).to.equal(false);

    const discarded = await owner.api.delete(
      `/v1/branches/${branch.id}?expected_version=${branch.version}`,
    );
    expect(discarded.status).to.equal(200);
    const read = await readRequest(viewer, cr.id);
    expect(read.change_request.state).to.equal('closed');
    expect(read.change_request.closed_at).to.be.a('string');
    const open = await viewer.api.get(`/v1/projects/${p.projectId}/change-requests`);
    expect(open.body.change_requests.map((c: any) => c.id)).to.deep.equal([cr2.id]);
    const closed = await viewer.api.get(`/v1/projects/${p.projectId}/change-requests?state=closed`);
    expect(closed.body.change_requests.map((c: any) => c.id)).to.deep.equal([cr.id]);
  });

  it('an anchor on a port, an edge, an old version; an unknown entity is anchor_not_found', async () => {
    const { owner, editor, branch, nodeId } = await team();
    const [out, inp] = [
      { id: uuid(), name: 'out', type: 'int' },
      { id: uuid(), name: 'in', type: 'int' },
    ];
    const [a, b, edge] = [uuid(), uuid(), uuid()];
    await branch.apply([
      addNode({ id: a, data: { name: 'a', outputs: [out] } }),
      addNode({ id: b, data: { name: 'b', inputs: [inp] } }),
      { type: 'add_edge', edge: { id: edge, source_handle: out.id, target_handle: inp.id } },
    ]);
    const cr = await openRequest(owner, branch.id);
    const res = await review(editor, cr.id, {
      verdict: 'comment',
      comments: [
        { body: 'port', anchor: { kind: 'port', id: out.id } },
        { body: 'edge', anchor: { kind: 'edge', id: edge } },
        { body: 'old', anchor: { kind: 'node', id: nodeId, version: 1 } },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.review.comments.map((c: any) => c.anchor.name)).to.deep.equal([
      'a.out',
      'a.out -> b.in',
      'orderStore',
    ]);
    const missing = await review(editor, cr.id, {
      verdict: 'comment',
      comments: [{ body: 'x', anchor: { kind: 'node', id: a, version: 1 } }],
    });
    expect(missing.status).to.equal(422);
    expect(missing.body.detail.code).to.equal('anchor_not_found');
    const future = await review(editor, cr.id, {
      verdict: 'comment',
      comments: [{ body: 'x', anchor: { kind: 'node', id: a, version: 99 } }],
    });
    expect(future.status).to.equal(422);
    expect(future.body.detail.code).to.equal('anchor_version_invalid');
  });
});

describe("main's protection rules", function () {
  this.timeout(120_000);

  it('0 required approvals (the default) keeps merging as before; preview lists no rule', async () => {
    const owner = await newUser();
    const p = await mergeProject(owner);
    const rules = await owner.api.get(`/v1/projects/${p.projectId}/protection-rules`);
    expect(rules.body).to.include({ updated_at: null });
    expect(rules.body.rules).to.deep.equal({
      required_approvals: 0,
      no_error_findings: false,
      require_up_to_date: false,
    });
    const b = await p.fork();
    await b.apply([addNode({ data: { name: 'x' } })]);
    expect((await b.preview()).rules).to.deep.equal([]);
    expect((await b.merge()).status).to.equal(200);
  });

  it('lists each unmet rule: not up to date and error findings, without a change request', async () => {
    const owner = await newUser();
    const p = await mergeProject(owner);
    const behind = await p.fork();
    await p.seed([addNode({ data: { name: 'first' } })]);
    // a wire to a port that does not exist: a dangling_wire error finding
    await behind.apply([
      { type: 'add_edge', edge: { id: uuid(), source_handle: uuid(), target_handle: uuid() } },
    ]);
    const set = await owner.api.put(`/v1/projects/${p.projectId}/protection-rules`, RULES);
    expect(set.status).to.equal(200);
    const preview = await behind.preview();
    expect(preview.can_merge).to.equal(false);
    expect(preview.rules.map((r: any) => [r.rule, r.met])).to.deep.equal([
      ['required_approvals', false],
      ['no_error_findings', false],
      ['up_to_date', false],
    ]);
    const res = await behind.merge();
    expect(res.status).to.equal(409);
    expect(res.body.detail.code).to.equal('merge_blocked');
    expect(res.body.detail.unmet_rules.map((r: any) => r.rule)).to.deep.equal([
      'required_approvals',
      'no_error_findings',
      'up_to_date',
    ]);
    // nothing changed on main
    expect((await p.main()).branch.version).to.equal(1);
  });

  it('no other way into main: a revert on main is refused, and an import creates a new project whose main has no rules', async () => {
    const owner = await newUser();
    const p = await mergeProject(owner);
    await p.seed([addNode({ data: { name: 'n' } })]);
    await owner.api.put(`/v1/projects/${p.projectId}/protection-rules`, RULES);
    const revert = await owner.api.post(`/v1/branches/${p.mainId}/revert`, {
      version: 1,
      expected_version: 1,
    });
    expect(revert.status).to.equal(409);
    expect(revert.body.detail.code).to.equal('main_not_writable');

    const file = await owner.api.get(`/v1/branches/${p.mainId}/file`);
    expect(file.status).to.equal(200);
    const imported = await owner.api.post('/v1/projects/import', {
      ...file.body,
      project_name: `copy-${uuid().slice(0, 8)}`,
    });
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    expect(imported.body.project.id).to.not.equal(p.projectId);
    // the ruled main is untouched; the new project's main has the defaults
    expect((await p.main()).branch.version).to.equal(1);
    const newRules = await owner.api.get(
      `/v1/projects/${imported.body.project.id}/protection-rules`,
    );
    expect(newRules.body.rules.required_approvals).to.equal(0);
  });
});
