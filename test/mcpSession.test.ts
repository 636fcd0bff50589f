/**
 * A scripted agent session through MCP, over both transports: create a project,
 * fork, read a subtree, apply a batch with a deliberate mistake, act on the
 * recovery hint, validate, preview and merge; main ends with the expected graph.
 * Also the resources (graph files, decisions) and the change-graph prompt.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { newUser, uniqueName } from './support/harness';
import { addNode, uuid } from './support/graphBuilders';
import { call, connect, ok, Transport } from './support/mcpClients';

for (const transport of ['http', 'stdio'] as Transport[]) {
  describe(`MCP agent session over ${transport}`, function () {
    this.timeout(60_000);
    let client: Client;
    let user: Awaited<ReturnType<typeof newUser>>;

    before(async () => {
      user = await newUser();
      client = await connect(transport, user.token);
    });
    after(async () => client?.close());

    it('changes a graph safely and merges it into main', async () => {
      const created = await ok(client, 'create_project', { name: uniqueName('mcp') });
      const projectId = created.project.id;
      const fork = await ok(client, 'fork_branch', { project_id: projectId, name: 'agent' });
      const branchId = fork.branch.id;
      let version = fork.branch.version;

      const rootId = uuid();
      const seeded = await ok(client, 'apply_deltas', {
        branch_id: branchId,
        expected_version: version,
        deltas: [addNode({ id: rootId, kind: 'boundary', data: { name: 'root' } })],
      });
      version = seeded.branch.version;

      const subtree = await ok(client, 'get_subtree', {
        branch_id: branchId,
        node_id: rootId,
        depth: 2,
      });
      expect(subtree.nodes).to.deep.equal([]);

      // the mistake: a child that reuses the root's id
      const child = addNode({ id: rootId, parent_id: rootId, data: { name: 'child' } });
      const failed = await call(client, 'apply_deltas', {
        branch_id: branchId,
        expected_version: version,
        deltas: [child],
      });
      expect(failed.isError).to.equal(true);
      expect(failed.status).to.equal(422);
      expect(failed.body.detail).to.include({
        error: 'id_collision',
        recovery_hint: 'regenerate_uuid',
        delta_index: 0,
      });
      // the agent follows the hint: a new uuid at the field named
      expect(failed.body.detail.field).to.equal('deltas[0].node.id');
      const childId = uuid();
      const fixed = [{ ...child, node: { ...child.node, id: childId } }];

      const checked = await ok(client, 'validate_deltas', { branch_id: branchId, deltas: fixed });
      expect(checked.valid).to.equal(true);
      const applied = await ok(client, 'apply_deltas', {
        branch_id: branchId,
        expected_version: version,
        deltas: fixed,
      });
      expect(applied.branch.version).to.equal(version + 1);
      version = applied.branch.version;

      const preview = await ok(client, 'get_merge_preview', { branch_id: branchId });
      expect(preview.conflicts ?? []).to.deep.equal([]);
      await ok(client, 'merge_branch', { branch_id: branchId, expected_version: version });

      const main = await ok(client, 'get_main_graph', { project_id: projectId });
      const nodes = (main.nodes as { id: string; parent_id: string | null; data: any }[])
        .map((n) => [n.id, n.parent_id, n.data.name])
        .sort();
      expect(nodes).to.deep.equal(
        [
          [rootId, null, 'root'],
          [childId, rootId, 'child'],
        ].sort(),
      );
      // and the same through plain HTTP
      const http = await user.api.get(`/v1/graph/${projectId}`);
      expect(http.body.nodes).to.deep.equal(main.nodes);
    });

    it('lists and reads graph files and decisions as resources', async () => {
      const created = await ok(client, 'create_project', { name: uniqueName('res') });
      const projectId = created.project.id;
      const mainId = created.main_branch.id;
      const fork = await ok(client, 'fork_branch', { project_id: projectId, name: 'files' });

      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).to.include.members([
        'gds://branches/{branch_id}/file',
        'gds://projects/{project_id}/decisions',
      ]);
      const { resources } = await client.listResources();
      const uris = resources.map((r) => r.uri);
      expect(uris).to.include.members([
        `gds://projects/${projectId}/main/file`,
        `gds://projects/${projectId}/decisions`,
        `gds://branches/${fork.branch.id}/file`,
      ]);

      for (const uri of [
        `gds://branches/${mainId}/file`,
        `gds://projects/${projectId}/main/file`,
      ]) {
        const read = await client.readResource({ uri });
        const http = await user.api.get(`/v1/branches/${mainId}/file`);
        expect(JSON.parse((read.contents[0] as { text: string }).text), uri).to.deep.equal(
          http.body,
        );
      }
      const decisions = await client.readResource({ uri: `gds://projects/${projectId}/decisions` });
      expect(JSON.parse((decisions.contents[0] as { text: string }).text)).to.deep.equal({
        project_id: projectId,
        decisions: [],
        complete: true,
      });
      // a branch the key cannot see: the API's 404 body
      const missing = await client.readResource({ uri: `gds://branches/${uuid()}/file` }).then(
        () => undefined,
        (error: { data?: any }) => error,
      );
      expect(missing?.data?.body?.detail?.code).to.equal('not_found');
    });

    it('offers the change-graph prompt', async () => {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).to.include('change_graph_safely');
      const prompt = await client.getPrompt({
        name: 'change_graph_safely',
        arguments: { project_id: 'p-1', goal: 'add a cache' },
      });
      const text = (prompt.messages[0].content as { text: string }).text;
      for (const step of ['validate_deltas', 'expected_version', 'recovery_hint', 'merge_branch'])
        expect(text).to.include(step);
    });
  });
}
