import { expect } from 'chai';
import { compactCypher } from '../../../shared/neo4j/compactCypher';
import { branchAccessCypher } from '../../branches';
import { searchNodesOf } from './searchQueries';
import { viewFieldsOf } from './visibility';

/**
 * searchNodesOf is written whole (no fragment spliced in), so it carries its own copy of
 * rules defined elsewhere; each copy must stay the rule as its owner writes it.
 */
describe('the name search statement (searchNodesOf), written whole', () => {
  const text = searchNodesOf.text;

  it("reads the caller's access row as the branches service defines it", () => {
    expect(text).to.include(compactCypher(branchAccessCypher()));
  });

  it('builds the view as visibility.ts viewFieldsOf does, at the head or at $version', () => {
    const fields = viewFieldsOf('b', 'coalesce(toInteger($version), b.version)');
    expect(text).to.include(compactCypher(`{${fields}} AS view`));
  });

  it('applies the shadowing of main by the branch wherever it reads main', () => {
    const shadow = compactCypher(`NOT EXISTS { MATCH (shadow:GNode {branch_id: view.line, id: n.id})
      USING INDEX SEEK shadow:GNode(branch_id, id) WHERE shadow.vfrom <= view.ver }`);
    const mainReads = text.split('n.branch_id = view.main').length - 1;
    expect(mainReads).to.equal(2);
    expect(text.split(shadow).length - 1).to.equal(mainReads);
  });
});
