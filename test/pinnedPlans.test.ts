/**
 * pinnedCypher keeps a statement's cached plan however the store's statistics change
 * (replan=skip). That is safe only while every node lookup in the statement names its
 * index: a plan made while the store was nearly empty would otherwise keep scanning a
 * label as it grows. Each pinned statement of the graph service is planned here, and its
 * plan may look nodes up by index seeks only, never by a scan.
 */
import { expect } from 'chai';
import neo4j from 'neo4j-driver';
import { explainPinned, pinnedQueries } from '../shared/neo4j/namedQuery';
import '../services/graph';
import { currentHarness } from './support/harness';

const SCANS =
  /^(AllNodesScan|NodeByLabelScan|NodeIndexScan|NodeIndexContainsScan|NodeIndexEndsWithScan|UnionNodeByLabelsScan|IntersectionNodeByLabelsScan)/;

interface PlanNode {
  operatorType: string;
  children: PlanNode[];
}

function operators(plan: PlanNode): string[] {
  return [plan.operatorType, ...plan.children.flatMap(operators)];
}

describe('pinned statements (pinnedCypher) look nodes up by index only', function () {
  // planning the largest statements cold takes seconds each
  this.timeout(120_000);

  it('plans every pinned statement of the graph service without a node scan', async () => {
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
    const { neo4j: db } = currentHarness().config;
    const driver = neo4j.driver(db.uri, neo4j.auth.basic(db.user, db.password));
    try {
      for (const query of queries) {
        const { summary } = await driver.executeQuery(explainPinned(query));
        const ops = operators(summary.plan as unknown as PlanNode);
        expect(ops.length, query.name).to.be.greaterThan(1);
        expect(
          ops.filter((op) => SCANS.test(op)),
          query.name,
        ).to.deep.equal([]);
      }
    } finally {
      await driver.close();
    }
  });
});
