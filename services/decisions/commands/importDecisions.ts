/**
 * `graphctl decisions import --project ID --file PATH`: a JSON Lines file, one decision a line,
 * any state, written directly to Neo4j (no queue, so the printed count is what
 * is stored when the command returns).
 *
 * All or nothing: every line is checked first; when any line is invalid (bad
 * JSON, a record parseDecision refuses, a project_id other than --project, an
 * id that belongs to another project) nothing is imported and every bad line is
 * reported with its 1-based line number. Blank lines are skipped. A repeated id
 * is an upsert: the later line wins (and counts once), and re-importing a file
 * changes nothing. The records are written in one transaction.
 */
import { InvalidInputError, NotFoundError } from '../../../shared/errors/domainErrors';
import type { Executor } from '../../../shared/neo4j/executor';
import type { DecisionRecord } from '../decisionRecord';
import { parseDecision } from '../parseDecision';
import { DecisionProjectMismatchError, upsertDecisions } from './upsertDecisions';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface LineProblem {
  line: number;
  reason: string;
}

export class InvalidDecisionLinesError extends InvalidInputError {
  constructor(readonly lines: LineProblem[]) {
    const first = lines
      .slice(0, 3)
      .map((l) => `line ${l.line}: ${l.reason}`)
      .join('; ');
    super(
      'invalid_lines',
      `${lines.length} invalid line(s), nothing imported (${first}${lines.length > 3 ? '; ...' : ''})`,
      { lines },
    );
  }
}

/** Parses every line; returns the records with their line numbers, or throws with every problem. */
export function parseDecisionLines(
  projectId: string,
  text: string,
): { record: DecisionRecord; line: number }[] {
  const parsed: { record: DecisionRecord; line: number }[] = [];
  const problems: LineProblem[] = [];
  text.split(/\r?\n/).forEach((content, index) => {
    const line = index + 1;
    if (content.trim() === '') return;
    let raw: unknown;
    try {
      raw = JSON.parse(content);
    } catch (error) {
      problems.push({ line, reason: `not JSON: ${(error as Error).message}` });
      return;
    }
    const result = parseDecision(raw, { projectId });
    if (result.ok) parsed.push({ record: result.record, line });
    else problems.push({ line, reason: result.problems.join('; ') });
  });
  if (problems.length > 0) throw new InvalidDecisionLinesError(problems);
  return parsed;
}

export async function importDecisions(
  executor: Executor,
  projectIdRaw: string,
  text: string,
): Promise<{ imported: number }> {
  if (!UUID.test(projectIdRaw)) throw new NotFoundError(`project ${projectIdRaw}`);
  const projectId = projectIdRaw.toLowerCase();
  const lines = parseDecisionLines(projectId, text);
  try {
    await upsertDecisions(
      executor,
      projectId,
      lines.map((l) => l.record),
    );
  } catch (error) {
    if (error instanceof DecisionProjectMismatchError) {
      const foreign = new Set(error.ids);
      throw new InvalidDecisionLinesError(
        lines
          .filter((l) => foreign.has(l.record.id))
          .map((l) => ({ line: l.line, reason: `id ${l.record.id} belongs to another project` })),
      );
    }
    throw error;
  }
  // a repeated id is one decision (the later line wins)
  return { imported: new Set(lines.map((l) => l.record.id)).size };
}
