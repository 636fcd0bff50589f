/**
 * Two agents review through MCP (the gateway's /mcp): the branch's owner opens a change
 * request (open_change_request), a reviewer reads it (get_change_request,
 * list_change_requests), comments on a node and approves (review_change_request), the
 * owner replies to the comment and merges; both read what happened from the project's
 * feed, the resource gds://projects/{project_id}/events.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { grant, newUser, uniqueName } from './support/harness';
import { addNode, uuid } from './support/graphBuilders';
import { call, connect, ok } from './support/mcpClients';

describe('MCP agent session: a change request reviewed and merged', function () {
  this.timeout(60_000);
  const clients: Client[] = [];
  after(async () => {
    for (const c of clients) await c.close();
  });

  it('opens, reads, comments on a node, approves, replies, merges, and reads the feed', async () => {
    const [ownerUser, reviewerUser] = [await newUser(), await newUser()];
    const owner = await connect('http', ownerUser.token);
    const reviewer = await connect('http', reviewerUser.token);
    clients.push(owner, reviewer);

    const projectId = (await ok(owner, 'create_project', { name: uniqueName('mcp-cr') })).project
      .id;
    await grant(projectId, reviewerUser, 'editor');
    const branch = (await ok(owner, 'fork_branch', { project_id: projectId, name: 'orders' }))
      .branch;
    const nodeId = uuid();
    await ok(owner, 'apply_deltas', {
      branch_id: branch.id,
      expected_version: 0,
      deltas: [addNode({ id: nodeId, data: { name: 'orderStore' } })],
    });
    const opened = await ok(owner, 'open_change_request', {
      branch_id: branch.id,
      title: 'Store orders',
      description: 'Adds the order store.',
    });
    const crId = opened.change_request.id;
    expect(opened.change_request).to.include({ state: 'open', branch_id: branch.id });

    // the reviewer finds it, reads the diff, comments on the node and approves
    const listed = await ok(reviewer, 'list_change_requests', { project_id: projectId });
    expect(listed.change_requests.map((c: any) => c.id)).to.deep.equal([crId]);
    const read = await ok(reviewer, 'get_change_request', { change_request_id: crId });
    expect(read.diff.nodes.added).to.include(nodeId);
    expect(read.caller).to.deep.equal({ role: 'editor', branch_owner: false });
    const commented = await ok(reviewer, 'review_change_request', {
      change_request_id: crId,
      verdict: 'comment',
      comments: [{ body: 'A state node?', anchor: { kind: 'node', id: nodeId } }],
    });
    const commentId = commented.review.comments[0].id;
    expect(commented.review.comments[0].anchor).to.include({ kind: 'node', name: 'orderStore' });
    await ok(reviewer, 'review_change_request', {
      change_request_id: crId,
      verdict: 'approve',
      body: 'Looks right.',
    });

    // the owner may not approve its own, but replies, then merges
    const own = await call(owner, 'review_change_request', {
      change_request_id: crId,
      verdict: 'approve',
    });
    expect(own.status).to.equal(403);
    expect(own.body.detail.code).to.equal('own_change_request');
    const reply = await ok(owner, 'review_change_request', {
      change_request_id: crId,
      verdict: 'comment',
      comments: [{ body: 'It holds the orders.', in_reply_to: commentId }],
    });
    expect(reply.review.comments[0].in_reply_to).to.equal(commentId);
    await ok(owner, 'merge_branch', { branch_id: branch.id, expected_version: 1 });
    const merged = await ok(reviewer, 'get_change_request', { change_request_id: crId });
    expect(merged.change_request.state).to.equal('merged');
    expect(merged.reviews).to.have.length(3);

    // the feed, as an MCP resource: every member reads the change request's events in order
    const feed = await reviewer.readResource({ uri: `gds://projects/${projectId}/events` });
    const events = JSON.parse((feed.contents[0] as { text: string }).text).events;
    const kinds = events
      .filter((e: any) => e.change_request_id === crId)
      .map((e: any) => [e.kind, e.verdict ?? null]);
    expect(kinds).to.deep.equal([
      ['change_request_opened', null],
      ['change_request_reviewed', 'comment'],
      ['change_request_reviewed', 'approve'],
      ['change_request_reviewed', 'comment'],
      ['change_request_merged', null],
    ]);
  });
});
