/** Unit tests of the graph-file readers, the import plan and file-term errors. */
import { expect } from 'chai';
import { DeltaError, InvalidInputError } from '../../shared/errors/domainErrors';
import type { AddNode } from '../graph';
import { readGraphFile, upgradeKeys } from './graphFileReader';
import { parentsFirst, planImport } from './importPlan';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('graph file readers', () => {
  it('upgrades camelCase keys at every depth and drops keys with an underscore', () => {
    expect(
      upgradeKeys({
        parentId: 'p',
        data: { isTestNode: true, inputs: [{ contractName: 'c' }], user_kind: 'x' },
        position: { x: 1, y: 2 },
      }),
    ).to.deep.equal({
      parent_id: 'p',
      data: { is_test_node: true, inputs: [{ contract_name: 'c' }] },
      position: { x: 1, y: 2 },
    });
  });

  it('reads 6 as is and 3-5 upgraded; refuses other versions', () => {
    const six = readGraphFile({ schema_version: 6, project_name: 'p', nodes: [], edges: [] });
    expect(six).to.deep.equal({ schemaVersion: 6, projectName: 'p', nodes: [], edges: [] });
    const five = readGraphFile({
      schemaVersion: 5,
      projectName: 'p',
      nodes: [{ parentId: null }],
      edges: [{ sourceHandle: 'a' }],
    });
    expect(five.nodes).to.deep.equal([{ parent_id: null }]);
    expect(five.edges).to.deep.equal([{ source_handle: 'a' }]);
    for (const body of [{ schema_version: 7 }, { schemaVersion: 2 }, {}, [], null]) {
      const error = thrown(() => readGraphFile(body)) as InvalidInputError;
      expect(error).to.be.instanceOf(InvalidInputError);
      expect(error.code).to.equal('unsupported_schema_version');
    }
  });

  it('refuses state nodes before 4 and io nodes before 5', () => {
    const file = (v: number, kind: string) => ({
      schemaVersion: v,
      projectName: 'p',
      nodes: [{ kind }],
      edges: [],
    });
    expect(() => readGraphFile(file(4, 'state'))).to.not.throw();
    expect(() => readGraphFile(file(5, 'io'))).to.not.throw();
    const error = thrown(() => readGraphFile(file(3, 'state'))) as DeltaError;
    expect(error.envelope).to.include({ error: 'validation_error', field: 'nodes[0].kind' });
    expect((thrown(() => readGraphFile(file(4, 'io'))) as DeltaError).envelope.field).to.equal(
      'nodes[0].kind',
    );
  });
});

describe('import plan', () => {
  const add = (n: number, parent: number | null): AddNode => ({
    type: 'add_node',
    index: n,
    node: { id: id(n), kind: 'boundary', parent_id: parent === null ? null : id(parent), data: {} },
  });

  it('orders parents first, stably, and leaves unknown parents and cycles in place', () => {
    const order = parentsFirst([
      add(0, 2),
      add(1, null),
      add(2, 1),
      add(3, 9),
      add(4, 5),
      add(5, 4),
    ]);
    expect(order.map((d) => d.index)).to.deep.equal([1, 2, 0, 3, 5, 4]);
  });

  it('speaks in file terms: nodes[i] and edges[j], with the index in that list', () => {
    const dup = thrown(() =>
      planImport({
        schemaVersion: 6,
        projectName: 'p',
        nodes: [{ id: id(1) }],
        edges: [{ id: id(2) }, { id: 'nope' }],
      }),
    ) as DeltaError;
    expect(dup.envelope).to.include({
      error: 'validation_error',
      field: 'edges[1].id',
      delta_index: 1,
      delta_type: 'add_edge',
    });
    const position = thrown(() =>
      planImport({
        schemaVersion: 6,
        projectName: 'p',
        nodes: [{ id: id(1), position: { x: 1 } }],
        edges: [],
      }),
    ) as DeltaError;
    expect(position.envelope).to.include({ field: 'nodes[0].position', delta_index: 0 });
    const plan = planImport({
      schemaVersion: 6,
      projectName: 'p',
      nodes: [{ id: id(1), parent_id: id(2), position: { x: 1, y: 2 } }, { id: id(2) }],
      edges: [],
    });
    expect(plan.deltas.map((d) => d.index)).to.deep.equal([1, 0]);
    expect(plan.positions).to.deep.equal([{ id: id(1), x: 1, y: 2 }]);
  });
});
