/**
 * Plans of named statements in the store of the tests: a statement that may only look
 * nodes up by index seeks is planned here (EXPLAIN, nothing runs) and its plan's
 * operators are checked for a read of a label or an index whole, or of every entry of a
 * composite index under its first key (a seek that only asks a later key to exist); a
 * statement run under PROFILE answers its plan's operators with the rows each produced.
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
  /** Rows the operator produced (a profiled plan only). */
  rows?: number;
  children: PlanNode[];
}

/** The plan's operators, the plan's own first. */
const planNodes = (plan: PlanNode): PlanNode[] => [plan, ...plan.children.flatMap(planNodes)];

/** Each operator of the plan as its type and details (`NodeIndexSeek uf:GFinding(...) WHERE ...`). */
const operators = (plan: PlanNode): string[] =>
  planNodes(plan).map((op) => `${op.operatorType} ${op.arguments.Details ?? ''}`.trim());

/** Runs `work` with a driver of the tests' Neo4j, closed after it. */
async function withDriver<T>(work: (driver: ReturnType<typeof neo4j.driver>) => Promise<T>) {
  const { neo4j: db } = currentHarness().config;
  const driver = neo4j.driver(db.uri, neo4j.auth.basic(db.user, db.password));
  try {
    return await work(driver);
  } finally {
    await driver.close();
  }
}

/** An operator of a profiled plan: its type and details, and the rows it produced. */
export interface ProfiledOperator {
  operator: string;
  rows: number;
}

/** Runs `query` with `params` under PROFILE: the rows it answered, and its plan's operators. */
export async function profiled(
  query: NamedQuery,
  params: Record<string, unknown>,
): Promise<{ rows: number; operators: ProfiledOperator[] }> {
  return withDriver(async (driver) => {
    const { records, summary } = await driver.executeQuery(`PROFILE ${query.text}`, params);
    return {
      rows: records.length,
      operators: planNodes(summary.profile as unknown as PlanNode).map((op) => ({
        operator: `${op.operatorType} ${op.arguments.Details ?? ''}`.trim(),
        rows: Number(op.rows),
      })),
    };
  });
}

/**
 * Plans each of `queries` (`explain` gives the text to plan: EXPLAIN and the
 * statement's own text unless told otherwise) and expects no scan and no existence seek
 * in any plan, and a plan of more than one operator.
 */
export async function expectIndexSeeksOnly(
  queries: readonly NamedQuery[],
  explain: (query: NamedQuery) => string = (query) => `EXPLAIN ${query.text}`,
): Promise<void> {
  await withDriver(async (driver) => {
    for (const query of queries) {
      const { summary } = await driver.executeQuery(explain(query));
      const ops = operators(summary.plan as unknown as PlanNode);
      expect(ops.length, query.name).to.be.greaterThan(1);
      expect(
        ops.filter((op) => SCANS.test(op) || isExistenceSeek(op, query.text)),
        query.name,
      ).to.deep.equal([]);
    }
  });
}
