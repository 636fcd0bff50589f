import { expect } from 'chai';
import type { ManagedTransaction } from 'neo4j-driver';
import type { Logger } from '../logging/logger';
import { cypher, pinnedCypher } from './namedQuery';
import { pinnedParamsCheck, unstableParams } from './paramShapes';
import { queryRunnerOf } from './queryRunner';

/** A logger that keeps the warnings it is given. */
function warningsKept() {
  const warnings: { fields: unknown; message: string }[] = [];
  const logger = {
    warn: (fields: unknown, message: string) => warnings.push({ fields, message }),
  } as unknown as Logger;
  return { logger, warnings };
}

const pinned = pinnedCypher('pinnedForShapes', 'UNWIND $asked.ids AS id RETURN id');
const unpinned = cypher('unpinnedForShapes', 'UNWIND $ids AS id RETURN id');

describe('parameters of a pinned statement keep one type (paramShapes.ts)', () => {
  it('takes strings, numbers, booleans, maps (whatever they hold) and lists of maps as one type', () => {
    expect(
      unstableParams({
        line: 'l',
        ver: 3,
        write: false,
        view: { line: 'l', ver: null, ids: [] },
        nodes: [{ id: 'a', props: {} }],
        empty: [],
      }),
    ).to.deep.equal([]);
  });

  it('names null, undefined and lists of values: their type changes from call to call', () => {
    expect(
      unstableParams({
        record: null,
        version: undefined,
        ids: ['a'],
        pairs: [['a', 'b']],
        mixed: [{ id: 'a' }, 'b'],
      }),
    ).to.deep.equal([
      'record (null)',
      'version (null)',
      'ids (a list of values)',
      'pairs (a list of values)',
      'mixed (a list of values)',
    ]);
  });

  it('refuses such a call to a pinned statement before it is sent, when the policy refuses', async () => {
    const sent: string[] = [];
    const tx = {
      run: (text: string) => {
        sent.push(text);
        return Promise.resolve({ records: [], summary: { database: {} } });
      },
    } as unknown as Pick<ManagedTransaction, 'run'>;
    const { logger } = warningsKept();
    const runner = queryRunnerOf(tx, () => {}, undefined, pinnedParamsCheck('refuse', logger));
    const refused = await runner.run(pinned, { ids: ['a'] }).catch((error: Error) => error);
    expect(refused).to.be.instanceOf(Error);
    expect((refused as Error).message)
      .to.include('pinnedForShapes')
      .and.include('ids');
    expect(sent).to.deep.equal([]);
    // the same lists inside a map, and any statement that is not pinned, are sent
    await runner.run(pinned, { asked: { ids: ['a'] } });
    await runner.run(unpinned, { ids: ['a'] });
    expect(sent).to.have.length(2);
  });

  it('warns once per statement, and sends it, when the policy warns', () => {
    const { logger, warnings } = warningsKept();
    const check = pinnedParamsCheck('warn', logger);
    check(pinned, { ids: ['a'] });
    check(pinned, { ids: [], more: null });
    expect(warnings).to.have.length(1);
    expect(warnings[0].message).to.include('pinnedForShapes');
  });
});
