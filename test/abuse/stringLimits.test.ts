/**
 * Abuse: unbounded strings. Every text field has a maximum (TEXT_LIMITS, stated as
 * maxLength in the OpenAPI document); over it the answer is a 422 naming the field,
 * never a 500 from the (branch_id, scope, name) index. What findings and errors
 * quote of a caller's value is cut short, and a validate returns at most
 * MAX_FINDINGS findings with `truncated`.
 */
import { expect } from 'chai';
import { TEXT_LIMITS } from '../../shared/model/fieldLimits';
import { currentHarness, newUser } from '../support/harness';
import { addEdge, addNode, port, uuid, workspace } from '../support/graphBuilders';

describe('abuse: string limits', function () {
  this.timeout(60_000);

  it('a node name of 9 KB (over the index key size) is a 422 naming the field, not a 500', async () => {
    const w = await workspace(await newUser());
    const res = await w.post([addNode({ data: { name: 'n'.repeat(9 * 1024) } })]);
    expect(res.status).to.equal(422);
    expect(res.body.detail).to.include({
      error: 'validation_error',
      field: 'deltas[0].node.data.name',
      delta_index: 0,
    });
    expect(JSON.stringify(res.body).length).to.be.below(1000);
    // the name at its limit is stored and read back whole
    const atLimit = 'n'.repeat(TEXT_LIMITS.name);
    await w.apply([addNode({ data: { name: atLimit } })]);
    expect((await w.graph()).nodes[0].data.name).to.equal(atLimit);
  });

  it('a 4 MB port type, description or constraint is a 422 whose body stays small', async () => {
    const w = await workspace(await newUser());
    const huge = 't'.repeat(4 * 1024 * 1024);
    const cases: [Record<string, unknown>, string][] = [
      [{ inputs: [{ ...port('i'), type: huge }] }, 'inputs[0].type'],
      [{ description: huge }, 'description'],
      [{ constraints: ['ok', huge] }, 'constraints[1]'],
      [{ verifications: [{ id: uuid(), author: 'user', text: huge }] }, 'verifications[0].text'],
    ];
    for (const [data, field] of cases) {
      const res = await w.post([addNode({ data })]);
      expect(res.status, field).to.equal(422);
      expect(res.body.detail.field).to.equal(`deltas[0].node.data.${field}`);
      expect(JSON.stringify(res.body).length, field).to.be.below(1000);
    }
    // an unknown delta type is echoed cut short
    const res = await w.post([{ type: huge }]);
    expect(res.status).to.equal(422);
    expect(res.body.detail.error).to.equal('unknown_delta_type');
    expect(JSON.stringify(res.body).length).to.be.below(1000);
    // a positions key is a node id: a huge one is quoted cut short in the field path
    const badPosition = await w.post([], { positions: { [huge]: { x: 'left' } } });
    expect(badPosition.status).to.equal(422);
    expect(badPosition.body.detail.field.length).to.be.below(100);
    expect(JSON.stringify(badPosition.body).length).to.be.below(1000);
    expect((await w.graph()).branch.version).to.equal(0);
  });

  it('findings quote port types and names cut short', async () => {
    const w = await workspace(await newUser());
    const longType = 'T'.repeat(TEXT_LIMITS.type);
    const i = { ...port('i', longType), name: 'N'.repeat(TEXT_LIMITS.name) };
    const o = port('o', 'int');
    const unwired = { ...port('u', 'int'), name: 'M'.repeat(TEXT_LIMITS.name) };
    await w.apply([
      addNode({ data: { inputs: [i, unwired] } }),
      addNode({ data: { outputs: [o] } }),
      addEdge(o.id, i.id),
    ]);
    const res = await w.user.api.post(`/v1/branches/${w.branchId}/validate`, {});
    expect(res.status).to.equal(200);
    const codes = res.body.findings.map((f: { code: string }) => f.code);
    expect(codes).to.deep.equal(['type_mismatch', 'unsatisfied_input']);
    for (const finding of res.body.findings) expect(finding.message.length).to.be.below(200);
    expect(res.body.findings[0].message).to.include('…');
  });

  it('a graph with more findings than MAX_FINDINGS returns the first ones and truncated', async () => {
    const max = currentHarness().config.limits.maxFindings;
    const w = await workspace(await newUser());
    const inputs = Array.from({ length: max + 5 }, (_, k) => port(`i${k}`));
    const res = await w.user.api.post(`/v1/branches/${w.branchId}/validate`, {
      deltas: [addNode({ data: { inputs } })],
    });
    expect(res.status).to.equal(200);
    expect(res.body.findings).to.have.length(max);
    expect(res.body.truncated).to.equal(true);
    expect(res.body.valid).to.equal(false);
    const locators = res.body.findings.map((f: { locator: string }) => f.locator);
    expect(locators).to.deep.equal([...locators].sort());
    const small = await w.user.api.post(`/v1/branches/${w.branchId}/validate`, {
      deltas: [addNode({ data: { inputs: [port('only')] } })],
    });
    expect(small.body.truncated).to.equal(false);
    expect(small.body.findings).to.have.length(1);
  });
});
