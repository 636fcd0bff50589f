/**
 * Statements that read a whole line of records (a branch's purge, history retention, a
 * merge's list of a line's ids, the findings backfill) find it through an index whose
 * keys start with the line: (branch_id, id) or (branch_id, vto). The store keeps no
 * index on branch_id alone, since every record would pay for it on every write; a
 * statement that asked for the line alone would read its label whole instead, and a
 * branch's purge would then cost the size of the store, not of the branch.
 */
import neo4j from 'neo4j-driver';
import { expect } from 'chai';
import { clearLineFindings } from '../services/graph/store/findingBackfillQueries';
import { LINE_IDS } from '../services/merge/store/changeSetQueries';
import {
  purgeBranchEdges,
  purgeBranchFindings,
  purgeBranchNodes,
  purgeBranchPorts,
  purgeExpiredRecords,
} from '../services/purge/store/purgeQueries';
import { currentHarness } from './support/harness';
import { expectIndexSeeksOnly } from './support/queryPlans';

describe('statements that read a whole line seek an index keyed by the line first', () => {
  it('plans the purges, retention, line id lists and findings backfill without a scan', async () => {
    await expectIndexSeeksOnly([
      purgeBranchNodes,
      purgeBranchPorts,
      purgeBranchEdges,
      purgeBranchFindings,
      ...Object.values(purgeExpiredRecords),
      ...Object.values(LINE_IDS),
      clearLineFindings,
    ]);
  });

  it('keeps no index of a record label on branch_id alone', async () => {
    const { neo4j: db } = currentHarness().config;
    const driver = neo4j.driver(db.uri, neo4j.auth.basic(db.user, db.password));
    try {
      const { records } = await driver.executeQuery(
        `SHOW INDEXES YIELD labelsOrTypes, properties
         WHERE labelsOrTypes[0] IN ['GNode', 'Port', 'Edge', 'GFinding']
         RETURN labelsOrTypes[0] AS label, properties`,
      );
      const indexes = records.map((r) => `${r.get('label')}(${r.get('properties').join(', ')})`);
      expect(indexes).to.include('GNode(branch_id, id)');
      expect(indexes.filter((i) => i.endsWith('(branch_id)'))).to.deep.equal([]);
    } finally {
      await driver.close();
    }
  });
});
