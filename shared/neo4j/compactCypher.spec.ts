import { expect } from 'chai';
import { compactCypher } from './compactCypher';

describe('compactCypher (the text a named query is sent as)', () => {
  it('makes each run of blanks one space and drops comments', () => {
    const text = `MATCH (n:GNode {id: $id})
       // the open record only
       WHERE n.vto = 1 /* open */
         AND n.x   IS NULL
       RETURN n`;
    expect(compactCypher(text)).to.equal(
      'MATCH (n:GNode {id: $id}) WHERE n.vto = 1 AND n.x IS NULL RETURN n',
    );
  });

  it('keeps string literals and backquoted names byte for byte', () => {
    const text = `RETURN 'a  b\n c' AS x,  "it's //  not a comment" AS y,
       'don\\'t   /* stop */' AS z, n.\`two  words\` AS w`;
    expect(compactCypher(text)).to.equal(
      `RETURN 'a  b\n c' AS x, "it's //  not a comment" AS y, 'don\\'t   /* stop */' AS z, n.\`two  words\` AS w`,
    );
  });

  it('ends a line comment where its line did, so the next clause is kept', () => {
    expect(compactCypher('WITH 1 AS a // note\nRETURN a')).to.equal('WITH 1 AS a RETURN a');
    expect(compactCypher('RETURN 1 // last')).to.equal('RETURN 1');
  });
});
