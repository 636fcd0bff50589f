/**
 * Abuse: the change trail. A batch records its parsed deltas, never the body as
 * sent, and at most MAX_BATCH_BYTES of them (422 batch_too_large); the trail is
 * read a page at a time by the changes listing (cut by a byte budget of four
 * batches), the merge preview and the merge (replayed a few batches at a time).
 */
import { expect } from 'chai';
import { currentHarness, newUser } from '../support/harness';
import { addNode, uuid } from '../support/graphBuilders';
import { mergeProject } from '../support/mergeWorkspace';

const MiB = 1024 * 1024;

/** Add-node deltas whose recorded text is about `bytes` (10 000-character descriptions). */
function heavyNodes(bytes: number): unknown[] {
  const count = Math.ceil(bytes / 10_000);
  return Array.from({ length: count }, (_, i) =>
    addNode({
      data: { name: `heavy-${uuid().slice(0, 8)}-${i}`, description: 'd'.repeat(10_000) },
    }),
  );
}

describe('abuse: change trail', function () {
  this.timeout(120_000);

  it('records the parsed deltas only: megabytes of unknown keys never reach the trail', async () => {
    const p = await mergeProject(await newUser());
    const b = await p.fork();
    const junk = 'j'.repeat(MiB / 2);
    const node = uuid();
    await b.apply([{ ...addNode({ id: node, data: { name: 'kept', junk } }), junk }]);
    // the empty update_node_data of the attack: valid, bumps the version, sends 512 KiB each
    for (let i = 0; i < 3; i += 1) {
      await b.apply([{ type: 'update_node_data', node_id: node, after: {}, junk }]);
    }
    const res = await p.user.api.get(`/v1/branches/${b.id}/changes?limit=200`);
    expect(res.status).to.equal(200);
    expect(res.body.changes).to.have.length(4);
    expect(JSON.stringify(res.body).length).to.be.below(8 * 1024);
    expect(res.body.changes[3].deltas[0].node.data).to.deep.include({ name: 'kept' });
    expect(JSON.stringify(res.body)).not.to.include('jjjj');
    const preview = await b.preview();
    expect(preview.can_merge).to.equal(true);
  });

  it('refuses a batch that would record more than MAX_BATCH_BYTES: 422 batch_too_large, nothing applied', async () => {
    const max = currentHarness().config.limits.maxBatchBytes;
    const p = await mergeProject(await newUser());
    const b = await p.fork();
    const res = await p.user.api.post(`/v1/branches/${b.id}/deltas`, {
      deltas: heavyNodes(max + 10_000),
      expected_version: 0,
    });
    expect(res.status).to.equal(422);
    expect(res.body.detail).to.include({ error: 'batch_too_large', field: 'deltas' });
    expect(res.body.detail.message).to.include(String(max));
    const graph = await b.graph();
    expect(graph.branch.version).to.equal(0);
    expect(graph.nodes).to.deep.equal([]);
  });

  it('refuses a revert whose inverse would record more than MAX_BATCH_BYTES: 422 change_too_large, nothing changed', async () => {
    const max = currentHarness().config.limits.maxBatchBytes;
    const p = await mergeProject(await newUser());
    const b = await p.fork();
    const box = uuid();
    await b.apply([addNode({ id: box, kind: 'boundary', parent_id: null, data: { name: 'box' } })]);
    // three batches of heavy children, then one small delete of their parent: its inverse
    // adds them all back
    for (let i = 0; i < 3; i += 1)
      await b.apply(
        heavyNodes(max * 0.6).map((d: any) => ({ ...d, node: { ...d.node, parent_id: box } })),
      );
    await b.apply([{ type: 'delete_node', node_id: box }]);
    const res = await p.user.api.post(`/v1/branches/${b.id}/revert`, {
      version: b.version,
      expected_version: b.version,
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 400)).to.equal(422);
    expect(res.body.detail).to.include({ code: 'change_too_large', max_bytes: max });
    expect(res.body.detail.bytes).to.be.above(max);
    const trail = await p.user.api.get(`/v1/branches/${b.id}/changes?limit=1`);
    expect(trail.body.changes[0]).to.include({ version: b.version, kind: 'batch' });
    expect(trail.body.branch.version).to.equal(b.version);
  });

  it('pages the listing by bytes and replays a long trail page by page', async () => {
    const max = currentHarness().config.limits.maxBatchBytes;
    const p = await mergeProject(await newUser());
    const first = await p.fork();
    const second = await p.fork();
    // main moves after both forks, so the second merge replays its trail
    await first.apply([addNode({ data: { name: 'from-first' } })]);
    await first.mergeOk();

    const batches = 10; // more than one page of the replay (8 batches)
    const perBatch = heavyNodes(max * 0.8).length;
    for (let i = 0; i < batches; i += 1) await second.apply(heavyNodes(max * 0.8));

    // a page stops at four batches' worth of bytes, with has_more
    const page = await p.user.api.get(`/v1/branches/${second.id}/changes?limit=200`);
    expect(page.status).to.equal(200);
    const taken = page.body.changes.length;
    expect(taken).to.be.within(1, 5);
    expect(page.body.has_more).to.equal(true);
    expect(JSON.stringify(page.body).length).to.be.below(5 * max + 64 * 1024);
    let seen = taken;
    while (seen < batches) {
      const next = await p.user.api.get(
        `/v1/branches/${second.id}/changes?limit=200&offset=${seen}`,
      );
      expect(next.status).to.equal(200);
      expect(next.body.changes.length).to.be.at.least(1);
      seen += next.body.changes.length;
      expect(next.body.has_more).to.equal(seen < batches);
    }

    const preview = await second.preview();
    expect(preview).to.include({ mode: 'replay', can_merge: true });
    expect(preview.counts.nodes.added).to.equal(batches * perBatch);
    const merged = await second.mergeOk();
    expect(merged.mode).to.equal('replay');
    const main = await p.main();
    expect(main.nodes).to.have.length(batches * perBatch + 1);
    // main's merge record is a bounded summary, however long the merged trail: the
    // listing never returns the branch's deltas in one entry
    const trail = await p.user.api.get(`/v1/branches/${p.mainId}/changes?limit=1`);
    expect(trail.body.changes[0]).to.include({ kind: 'merge', mode: 'replay' });
    expect(trail.body.changes[0].deltas).to.deep.equal([]);
    expect(trail.body.changes[0].merged_trail).to.deep.equal({
      changes: batches,
      from_version: 1,
      to_version: batches,
    });
    expect(JSON.stringify(trail.body).length).to.be.below(4096);
  });
});
