/**
 * pinnedCypher keeps a statement's cached plan however the store's statistics change
 * (replan=skip). That is safe only while every node lookup in the statement names its
 * index: a plan made while the store was nearly empty would otherwise keep scanning a
 * label as it grows. Each pinned statement of the graph service is planned here (on the
 * tests' store, small, as a new deployment's is when it first plans them), and its plan
 * may look nodes up by index seeks only: never by a scan, nor by a seek that reads every
 * record of a line because it asks the index's later key only to exist.
 */
import { expect } from 'chai';
import { explainPinned, pinnedQueries } from '../shared/neo4j/namedQuery';
import '../services/graph';
import { expectIndexSeeksOnly } from './support/queryPlans';

describe('pinned statements (pinnedCypher) look nodes up by index only', function () {
  // planning the largest statements cold takes seconds each
  this.timeout(120_000);

  it('plans every pinned statement of the graph service without a node scan or an existence seek', async () => {
    const queries = pinnedQueries();
    expect(queries.map((q) => q.name)).to.include.members([
      'lockAndPrefetchAddRun',
      'prefetchAddRun',
      'recordBatch',
      'createGraphStates',
      'findingSubjects',
      'readNeighborhoodOf',
      'readBoundaryOf',
      'readTopLevelOf',
    ]);
    await expectIndexSeeksOnly(queries, explainPinned);
  });
});
