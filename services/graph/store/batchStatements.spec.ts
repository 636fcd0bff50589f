import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readableCypher } from '../../../shared/neo4j/readableCypher';
import { batchStatements } from './batchStatements';

describe('the statements of a delta batch, kept whole for review (store/statements)', () => {
  for (const query of batchStatements())
    it(`${query.name}.cypher is the text the code sends`, () => {
      const file = join(__dirname, 'statements', `${query.name}.cypher`);
      const kept = readFileSync(file, 'utf8');
      expect(kept, `${file} is stale: run make statements-text`).to.equal(
        readableCypher(query.text),
      );
    });
});
