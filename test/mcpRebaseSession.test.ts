/**
 * A scripted agent session through MCP (the gateway's /mcp) following the
 * change_graph_safely prompt on a merge conflict: read the preview, choose
 * resolutions, preview them (rebase_branch with dry_run), rebase, then merge.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { newUser, uniqueName } from './support/harness';
import { addNode, uuid } from './support/graphBuilders';
import { call, connect, ok } from './support/mcpClients';

describe('MCP agent session: a merge conflict resolved by a rebase', function () {
  this.timeout(60_000);
  let client: Client;

  before(async () => {
    client = await connect('http', (await newUser()).token);
  });
  after(async () => client?.close());

  it('the prompt names the steps, and the agent previews, rebases and merges', async () => {
    const prompt = await client.getPrompt({
      name: 'change_graph_safely',
      arguments: { project_id: 'p', goal: 'g' },
    });
    const text = (prompt.messages[0].content as { text: string }).text;
    for (const step of ['rebase_branch', 'dry_run', 'resolutions', 'merge_branch'])
      expect(text).to.include(step);

    const projectId = (await ok(client, 'create_project', { name: uniqueName('mcp') })).project.id;
    const fork = async (name: string) =>
      (await ok(client, 'fork_branch', { project_id: projectId, name })).branch;
    const n = uuid();
    const seed = await fork('seed');
    await ok(client, 'apply_deltas', {
      branch_id: seed.id,
      expected_version: 0,
      deltas: [addNode({ id: n, data: { name: 'loadOrders', description: 'base' } })],
    });
    await ok(client, 'merge_branch', { branch_id: seed.id, expected_version: 1 });
    const [other, mine] = [await fork('other'), await fork('mine')];
    const rename = (name: string) => [{ type: 'update_node_data', node_id: n, after: { name } }];
    await ok(client, 'apply_deltas', {
      branch_id: other.id,
      expected_version: 0,
      deltas: rename('readOrders'),
    });
    await ok(client, 'merge_branch', { branch_id: other.id, expected_version: 1 });
    await ok(client, 'apply_deltas', {
      branch_id: mine.id,
      expected_version: 0,
      deltas: rename('fetchOrders'),
    });

    // the merge is refused: the agent reads the preview
    const refused = await call(client, 'merge_branch', { branch_id: mine.id, expected_version: 1 });
    expect(refused.status).to.equal(409);
    expect(refused.body.detail.code).to.equal('merge_conflict');
    const preview = await ok(client, 'get_merge_preview', { branch_id: mine.id });
    expect(preview.can_merge).to.equal(false);
    const [conflict] = preview.conflicts;
    expect(conflict).to.deep.include({
      reason: 'modified_on_both',
      entity_id: n,
      fields: ['name'],
    });

    // chooses a resolution and previews it
    const resolutions = [
      {
        reason: conflict.reason,
        entity_kind: conflict.entity_kind,
        entity_id: conflict.entity_id,
        field: 'name',
        choice: 'value',
        value: 'fetchOpenOrders',
      },
    ];
    const dry = await ok(client, 'rebase_branch', {
      branch_id: mine.id,
      expected_version: 1,
      resolutions,
      dry_run: true,
    });
    expect(dry).to.deep.include({ rebased: false, dry_run: true, can_rebase: true });
    expect(dry.counts.nodes.changed).to.equal(1);

    // rebases, then merges
    const rebased = await ok(client, 'rebase_branch', {
      branch_id: mine.id,
      expected_version: 1,
      resolutions,
    });
    expect(rebased.rebased).to.equal(true);
    expect(rebased.branch.base_main_version).to.equal(rebased.main_branch.version);
    const merged = await ok(client, 'merge_branch', {
      branch_id: mine.id,
      expected_version: rebased.branch.version,
    });
    expect(merged.mode).to.equal('fast_forward');
    const main = await ok(client, 'get_main_graph', { project_id: projectId });
    expect(main.nodes.map((x: any) => x.data.name)).to.deep.equal(['fetchOpenOrders']);
  });
});
