import { expect } from 'chai';
import { compactCypher } from '../../../shared/neo4j/compactCypher';
import { ABANDONED, findAbandonedStages, takeOverStage } from './purgeQueries';

/** The statements kept whole that ask whether a stage is abandoned ask it as ABANDONED. */
describe('the purge statements hold the abandoned-stage rule as defined once', () => {
  for (const query of [findAbandonedStages, takeOverStage])
    it(`${query.name} asks whether a stage is abandoned as ABANDONED`, () => {
      expect(query.text).to.include(compactCypher(ABANDONED));
    });
});
