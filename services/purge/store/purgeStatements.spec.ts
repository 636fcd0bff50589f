import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { batchedDeleteTail } from '../../../shared/neo4j/batchedDelete';
import { compactCypher } from '../../../shared/neo4j/compactCypher';
import { ABANDONED, findAbandonedStages, takeOverStage } from './purgeQueries';

/** The statements kept whole that ask whether a stage is abandoned ask it as ABANDONED. */
describe('the purge statements hold the abandoned-stage rule as defined once', () => {
  for (const query of [findAbandonedStages, takeOverStage])
    it(`${query.name} asks whether a stage is abandoned as ABANDONED`, () => {
      expect(query.text).to.include(compactCypher(ABANDONED));
    });
});

const SERVICES = join(__dirname, '..', '..');

/** Every purge statement kept whole (store/statements/purge*.cypher), by `service/name`. */
function purgeStatements(): Map<string, string> {
  const found = new Map<string, string>();
  for (const service of readdirSync(SERVICES)) {
    const dir = join(SERVICES, service, 'store', 'statements');
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((f) => /^purge\w*\.cypher$/.test(f)))
      found.set(
        `${service}/${file.slice(0, -'.cypher'.length)}`,
        compactCypher(readFileSync(join(dir, file), 'utf8')),
      );
  }
  return found;
}

/**
 * A purge removes what it matches in small transactions whatever its size, so that it
 * never holds locks the API waits on and a purge cut short keeps what it has done:
 * every purge statement, the purge service's and those the services owning a deleted
 * project's other records run for it (their purge functions), ends as batchedDeleteTail.
 * Those of the other services purge one project: each selects by its $projectId.
 */
describe('the purge statements delete in batches (batchedDelete.ts batchedDeleteTail)', () => {
  const statements = purgeStatements();

  it('finds the purge statements of the purge, feed, reviews and webhooks services', () => {
    const services = new Set([...statements.keys()].map((key) => key.split('/')[0]));
    expect([...services].sort()).to.deep.equal(['feed', 'purge', 'reviews', 'webhooks']);
  });

  for (const [name, text] of statements)
    it(`${name} deletes ${name.endsWith('Memberships') ? 'relationships' : 'nodes'} 1000 rows a transaction and answers how many`, () => {
      const tail = name.endsWith('Memberships')
        ? batchedDeleteTail('x', 'DELETE')
        : batchedDeleteTail('x');
      expect(text.endsWith(compactCypher(tail)), text).to.equal(true);
      expect(text.split(' IN TRANSACTIONS ').length, text).to.equal(2);
    });

  for (const [name, text] of statements)
    if (!name.startsWith('purge/'))
      it(`${name} purges the records of project $projectId only`, () => {
        const first = text.slice(0, text.indexOf(' CALL ('));
        expect(first.startsWith('MATCH ('), text).to.equal(true);
        expect(first.split(' MATCH ')[0]).to.match(
          /^MATCH \(\w+:\w+ \{project_id: \$projectId\}\)/,
        );
      });
});
