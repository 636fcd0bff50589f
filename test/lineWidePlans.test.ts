/**
 * Statements that read a whole line of records (a branch's purge, history retention, a
 * merge's list of a line's ids, the findings backfill) seek an index whose keys start
 * with the line and go on with what they select or order by: (branch_id, vto) for the
 * records closed before a version, (branch_id, id) for ids in order, (branch_id, vfrom)
 * for every record of the line (a purge: every record has a vfrom). Planned here, each
 * may look records up by index seeks only: a plan that read a label whole would make a
 * branch's purge cost the size of the store, not of the branch.
 */
import { clearLineFindings } from '../services/graph/store/findingBackfillQueries';
import { LINE_IDS } from '../services/merge/store/changeSetQueries';
import {
  purgeBranchEdges,
  purgeBranchFindings,
  purgeBranchNodes,
  purgeBranchPorts,
  purgeExpiredRecords,
} from '../services/purge/store/purgeQueries';
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
});
