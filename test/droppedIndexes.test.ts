/**
 * An index the store no longer keeps is dropped at start-up (ensureSchema), since a
 * store an older version wrote still has it, and every index costs each record written
 * an entry. The (branch_id) index of nodes, ports, wires and findings is one: only a
 * whole line's purge read it, and that purge now seeks (branch_id, vfrom).
 */
import { expect } from 'chai';
import { createLogger } from '../shared/logging/logger';
import { cypher } from '../shared/neo4j/namedQuery';
import { ensureSchema } from '../services/platform';
import { currentHarness } from './support/harness';

const BRANCH_ONLY = {
  gnode_branch: 'GNode',
  port_branch: 'Port',
  edge_branch: 'Edge',
  gfinding_branch: 'GFinding',
} as const;

const indexNames = cypher('testIndexNames', 'SHOW INDEXES YIELD name RETURN name');

const createOld = (name: string, label: string) =>
  cypher(
    `testCreate_${name}`,
    `CREATE INDEX ${name} IF NOT EXISTS FOR (s:${label}) ON (s.branch_id)`,
  );

describe('indexes an older store has and this one does not keep', function () {
  this.timeout(60_000);

  it('drops the (branch_id) index of nodes, ports, wires and findings at start-up', async () => {
    const { executor } = currentHarness().service;
    const names = async () =>
      (await executor.read<{ name: string }>(indexNames, {})).map((r) => r.name);
    for (const [name, label] of Object.entries(BRANCH_ONLY))
      await executor.autoCommit(createOld(name, label));
    expect(await names()).to.include.members(Object.keys(BRANCH_ONLY));

    await ensureSchema(executor, createLogger({ level: 'silent' }));

    const after = await names();
    expect(after.filter((n) => n in BRANCH_ONLY)).to.deep.equal([]);
    // what the purge of a whole line seeks instead is there
    expect(after).to.include.members([
      'gnode_line_from',
      'port_line_from',
      'edge_line_from',
      'gfinding_line_from',
    ]);
  });
});
