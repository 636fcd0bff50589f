/**
 * A span per Neo4j statement, named after its named query (`lockAndPrefetchAddRun`,
 * `recordBatch`, ...), made by the executor's query runner when tracing is on. It holds
 * `db.system`/`db.system.name` neo4j, the database (`db.namespace`) and the named query
 * (`db.query.summary`, `db.operation.name`); its duration is the statement's, from
 * the run call to the last record. Never the statement's parameters: they are user
 * content (node names, descriptions, API key hashes), and neither is the statement's
 * text, which the named query identifies (services/<name>/store/).
 */
import { Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = trace.getTracer('graph-design-service/neo4j');

export interface StatementSpan {
  /**
   * Ends the span; `database` as the server reported it, when known. A failure is
   * recorded by its type (the Neo4j status code) alone: the server's message may quote
   * a parameter's value (a constraint violation names the value that broke it).
   */
  end(failure: unknown, database?: string): void;
}

/** The Neo4j status code of a failure (`Neo.ClientError...`), else its class name. */
function failureType(failure: unknown): string {
  const code = (failure as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code !== '') return code;
  return failure instanceof Error ? failure.name : 'error';
}

/** Starts the span of one statement, under the active span. */
export function startStatementSpan(name: string, database: string | undefined): StatementSpan {
  const span: Span = tracer.startSpan(name, {
    kind: SpanKind.CLIENT,
    attributes: {
      'db.system': 'neo4j',
      'db.system.name': 'neo4j',
      'db.operation.name': name,
      'db.query.summary': name,
      ...(database ? { 'db.namespace': database } : {}),
    },
  });
  return {
    end(failure, reported) {
      if (!database && reported) span.setAttribute('db.namespace', reported);
      if (failure !== undefined) {
        span.setAttribute('error.type', failureType(failure));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}
