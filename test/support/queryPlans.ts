/**
 * Plans of named statements in the store of the tests: a statement that may only look
 * nodes up by index seeks is planned here (EXPLAIN, nothing runs) and its plan's
 * operators are checked for a read of a label or an index whole, or of every entry of a
 * composite index under its first key (a seek that only asks a later key to exist).
 */
import { expect } from 'chai';
import neo4j from 'neo4j-driver';
import type { NamedQuery } from '../../shared/neo4j/namedQuery';
import { currentHarness } from './harness';

/** Plan operators that read a label or an index whole instead of seeking in it. */
const SCANS =
  /^(AllNodesScan|NodeByLabelScan|NodeIndexScan|NodeIndexContainsScan|NodeIndexEndsWithScan|UnionNodeByLabelsScan|IntersectionNodeByLabelsScan)/;

/**
 * A seek of a composite index that constrains a later key only to exist (`GFinding(branch_id,
 * id) WHERE branch_id IN [...] AND id IS NOT NULL`): it reads every record of the line,
 * leaving the key's test to a filter after it. Unless the statement asks just that of
 * the key (`n.name IS NOT NULL`: every top-level node of a line, by `(branch_id, scope,
 * name)`), such a seek stands in for a test of the key the plan did not seek.
 */
function isExistenceSeek(op: string, statement: string): boolean {
  const seek = /^(?:NodeIndexSeek|MultiNodeIndexSeek).*?\b(\w+):\w+\([^)]*\) WHERE (.*)$/.exec(op);
  if (!seek) return false;
  const [, variable, predicates] = seek;
  return [...predicates.matchAll(/\b(\w+) IS NOT NULL\b/g)].some(
    ([, key]) => !statement.includes(`${variable}.${key} IS NOT NULL`),
  );
}

interface PlanNode {
  operatorType: string;
  arguments: { Details?: string };
  children: PlanNode[];
}

/** Each operator of the plan as its type and details (`NodeIndexSeek uf:GFinding(...) WHERE ...`). */
const operators = (plan: PlanNode): string[] => [
  `${plan.operatorType} ${plan.arguments.Details ?? ''}`.trim(),
  ...plan.children.flatMap(operators),
];

/**
 * Plans each of `queries` (`explain` gives the text to plan: EXPLAIN and the
 * statement's own text unless told otherwise) and expects no scan and no existence seek
 * in any plan, and a plan of more than one operator.
 */
export async function expectIndexSeeksOnly(
  queries: readonly NamedQuery[],
  explain: (query: NamedQuery) => string = (query) => `EXPLAIN ${query.text}`,
): Promise<void> {
  const { neo4j: db } = currentHarness().config;
  const driver = neo4j.driver(db.uri, neo4j.auth.basic(db.user, db.password));
  try {
    for (const query of queries) {
      const { summary } = await driver.executeQuery(explain(query));
      const ops = operators(summary.plan as unknown as PlanNode);
      expect(ops.length, query.name).to.be.greaterThan(1);
      expect(
        ops.filter((op) => SCANS.test(op) || isExistenceSeek(op, query.text)),
        query.name,
      ).to.deep.equal([]);
    }
  } finally {
    await driver.close();
  }
}
