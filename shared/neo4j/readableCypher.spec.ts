import { expect } from 'chai';
import { compactCypher } from './compactCypher';
import { readableCypher } from './readableCypher';

describe('readableCypher (a statement laid out for reading)', () => {
  const text =
    "CYPHER replan=skip MATCH (b:Branch {id: $id}) WHERE b.x = 'a WITH b' CALL (b) { OPTIONAL MATCH (n:GNode {id: b.id}) USING INDEX SEEK n:GNode(branch_id, id) WHERE n.vto > 1 AND NOT EXISTS { MATCH (s:GNode {id: n.id}) WHERE s.vfrom <= 1 } RETURN [x IN n.ids WHERE x <> '' | x] AS ids } RETURN ids";

  it('lays out clauses, sub-clauses and subquery bodies, one a line', () => {
    expect(readableCypher(text)).to.equal(
      [
        'CYPHER replan=skip',
        'MATCH (b:Branch {id: $id})',
        "  WHERE b.x = 'a WITH b'",
        'CALL (b) {',
        '  OPTIONAL MATCH (n:GNode {id: b.id})',
        '    USING INDEX SEEK n:GNode(branch_id, id)',
        '    WHERE n.vto > 1 AND NOT EXISTS {',
        '      MATCH (s:GNode {id: n.id})',
        '        WHERE s.vfrom <= 1',
        '    }',
        "  RETURN [x IN n.ids WHERE x <> '' | x] AS ids",
        '}',
        'RETURN ids',
        '',
      ].join('\n'),
    );
  });

  it('changes only blanks: compactCypher of the layout is the text sent', () => {
    expect(compactCypher(readableCypher(text))).to.equal(text);
  });
});
