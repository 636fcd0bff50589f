/**
 * The only code that runs Cypher. It owns the driver, opens sessions, retries
 * transient failures (through the driver's managed transactions), converts
 * records to plain objects, times every named query (queryRunner.ts runs them inside a
 * transaction), and maps Neo4j failures to typed domain errors.
 *
 * Routing: reads run in READ sessions and writes in WRITE sessions, so with a
 * `neo4j://` URI a cluster serves reads from its secondaries and writes from the
 * leader. Every session shares one bookmark manager, so a read in this process
 * sees every write this process committed before it; bookmarks carried in by a
 * request (graphBookmarks.ts) are added to the ones a session starts from.
 *
 * Cancellation: a session opened for a request whose caller hangs up
 * (callerCancellation.ts) is closed at once; the driver resets its connection, which
 * ends the transaction on the server (locks released, nothing committed), and the work
 * fails with CallerGoneError instead of running on for no one.
 */
import neo4j, {
  BookmarkManager,
  Driver,
  ManagedTransaction,
  Neo4jError,
  Session,
} from 'neo4j-driver';

/** The driver's per-transaction settings (only the timeout is used). */
type TransactionConfig = { timeout?: number };
import type { Logger } from 'pino';
import { CallerGoneError, DomainError, ServiceUnavailableError } from '../errors/domainErrors';
import { AvailabilityGate } from './availabilityGate';
import { BookmarkScope, currentBookmarkScope } from './graphBookmarks';
import { callerSignal } from './callerCancellation';
import { neo4jCode, neo4jFailure } from './neo4jErrors';
import { cypher, NamedQuery, Params, QueryRunner, Row } from './namedQuery';
import { ParamsCheck, pinnedParamsCheck, UnstableParamsPolicy } from './paramShapes';
import { queryRunnerOf, StatementTracer, withoutDriverStack } from './queryRunner';
import { startStatementSpan } from '../telemetry/statementSpans';
import { bestEffort } from '../async/promises';

export interface ExecutorOptions {
  uri: string;
  user: string;
  password: string;
  database?: string;
  logger: Logger;
  /** Called after each query with its name and duration in milliseconds. */
  onQuery?: (name: string, ms: number, ok: boolean) => void;
  /**
   * Server-side limit on each transaction of the API (0 or absent: none). The
   * batched purges (autoCommit) are exempt: each of their inner transactions is small.
   */
  transactionTimeoutMs?: number;
  /**
   * How long a request waits for the database to reach the bookmarks it carries
   * (graphBookmarks.ts) before failing with a 503 (default 5000).
   */
  bookmarkWaitMs?: number;
  /**
   * What a pinned statement sent a parameter whose type varies from call to call meets
   * (paramShapes.ts): refused, or a warning once per statement (the default).
   */
  unstableParams?: UnstableParamsPolicy;
  /**
   * A trace span per statement, named after its named query (tracing on:
   * shared/telemetry/statementSpans.ts); off, no span code runs at all.
   */
  traceStatements?: boolean;
}

/** What a session with a request's bookmarks runs first: it answers once they are reached. */
const BOOKMARKS_REACHED = cypher('bookmarksReached', 'RETURN 1 AS reached');

/** Attempts of a dry run (rolledBackTx) that meets a deadlock or another transient failure. */
const DRY_RUN_ATTEMPTS = 4;

/** A query that takes longer is logged as slow (observe). */
const SLOW_QUERY_MS = 500;

/** The driver's telemetry code of a managed transaction (executeRead / executeWrite). */
const MANAGED_TRANSACTION_API = 0;

/**
 * A managed transaction waits for the answer to BEGIN before sending its first query:
 * a round trip of its own in every write request. The driver's own executeQuery sends
 * BEGIN and the first query together (with the same retries) through this session
 * setting, not exposed in its types; it is used here when the driver has it.
 */
function pipelineBegin(session: Session): Session {
  const configure = (
    session as unknown as {
      _configureTransactionExecutor?: (pipelined: boolean, telemetryApi: number) => void;
    }
  )._configureTransactionExecutor;
  if (typeof configure === 'function') configure.call(session, true, MANAGED_TRANSACTION_API);
  return session;
}

export class Executor {
  private readonly driver: Driver;
  private readonly database: string | undefined;
  private readonly logger: Logger;
  private readonly onQuery: ExecutorOptions['onQuery'];
  private readonly gate: AvailabilityGate;
  private readonly bookmarks: BookmarkManager = neo4j.bookmarkManager();
  /** Passed to every transaction of the API (the server enforces the timeout). */
  private readonly txConfig: TransactionConfig;
  private readonly timeoutMs: number;
  private readonly bookmarkWaitMs: number;
  private readonly traceStatement: StatementTracer | undefined;
  private readonly checkParams: ParamsCheck;

  constructor(options: ExecutorOptions) {
    this.checkParams = pinnedParamsCheck(options.unstableParams ?? 'warn', options.logger);
    this.traceStatement = options.traceStatements
      ? (name) => startStatementSpan(name, options.database)
      : undefined;
    this.timeoutMs = options.transactionTimeoutMs ?? 0;
    this.bookmarkWaitMs = options.bookmarkWaitMs ?? 5_000;
    this.txConfig = this.timeoutMs > 0 ? { timeout: this.timeoutMs } : {};
    this.driver = neo4j.driver(options.uri, neo4j.auth.basic(options.user, options.password), {
      disableLosslessIntegers: true,
      maxConnectionPoolSize: 64,
      connectionAcquisitionTimeout: 10_000,
      connectionTimeout: 5_000,
      maxTransactionRetryTime: 10_000,
      // The service reads no notification (hints, deprecations, style advice): with them
      // off the server neither computes nor sends them with every answer, which for a
      // batch's first statement was a few kilobytes per request to unpack and discard.
      notificationFilter: { minimumSeverityLevel: 'OFF' },
    });
    this.database = options.database;
    this.logger = options.logger;
    this.onQuery = options.onQuery;
    this.gate = new AvailabilityGate(
      () => this.driver.getServerInfo({ database: this.database }).then(() => undefined),
      options.logger,
    );
  }

  /**
   * Runs one read query as an auto-commit read (one round trip: no BEGIN/COMMIT),
   * for single-statement reads on the hot path such as authentication.
   */
  read<R extends Row = Row>(query: NamedQuery, params: Params = {}): Promise<R[]> {
    return this.runAutoCommit('READ', query, params, this.txConfig);
  }

  /** Runs a write query in its own managed write transaction. */
  write<R extends Row = Row>(query: NamedQuery, params: Params = {}): Promise<R[]> {
    return this.writeTx((tx) => tx.run<R>(query, params));
  }

  readTx<T>(work: (tx: QueryRunner) => Promise<T>): Promise<T> {
    return this.withSession('READ', false, (session) =>
      pipelineBegin(session).executeRead((tx) => work(this.runner(tx)), this.txConfig),
    );
  }

  /**
   * Runs `work` in one write transaction: all of it commits or none of it does.
   * A DomainError thrown by `work` rolls back and propagates unchanged.
   */
  writeTx<T>(work: (tx: QueryRunner) => Promise<T>): Promise<T> {
    return this.withSession('WRITE', true, (session) =>
      pipelineBegin(session).executeWrite((tx) => work(this.runner(tx)), this.txConfig),
    );
  }

  /**
   * Runs `work` in a write transaction that is always rolled back (dry runs).
   * The result of `work` is returned; nothing it wrote is kept. Like the managed
   * transactions, a deadlock or another transient failure runs `work` again (a few
   * times), so a dry run that meets a concurrent apply or merge never answers 500.
   */
  async rolledBackTx<T>(work: (tx: QueryRunner) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.withSession('WRITE', false, async (session) => {
          const tx = session.beginTransaction(this.txConfig);
          try {
            return await work(this.runner(tx));
          } finally {
            await bestEffort(
              tx.rollback(),
              'a dry run commits nothing: closing the session ends it',
            );
          }
        });
      } catch (error) {
        if (attempt >= DRY_RUN_ATTEMPTS || !Neo4jError.isRetriable(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt * Math.random()));
      }
    }
  }

  /** Auto-commit write query, for `CALL { ... } IN TRANSACTIONS` batch work (purges). */
  autoCommit<R extends Row = Row>(query: NamedQuery, params: Params = {}): Promise<R[]> {
    return this.runAutoCommit('WRITE', query, params, {});
  }

  /**
   * One auto-commit query, run and observed as a query in a transaction is
   * (queryRunnerOf), in a session of its own with the driver's settings `config`.
   */
  private runAutoCommit<R extends Row>(
    mode: 'READ' | 'WRITE',
    query: NamedQuery,
    params: Params,
    config: TransactionConfig,
  ): Promise<R[]> {
    return this.withSession(mode, mode === 'WRITE', (session) =>
      this.runner({
        run: (text: string, values?: Params) => session.run(text, values, config),
      }).run<R>(query, params),
    );
  }

  /**
   * Creates schema rules (constraints, indexes; each `IF NOT EXISTS`), then runs
   * `awaitIndexes`. Several processes may start at once on a fresh database:
   * `IF NOT EXISTS` does not stop two of them racing, and the loser is told the rule
   * already exists, which is what it wanted; racing statements can also deadlock,
   * and those are retried.
   */
  async applySchema(statements: readonly NamedQuery[], awaitIndexes: NamedQuery): Promise<void> {
    for (const statement of statements) {
      for (let attempt = 1; ; attempt++) {
        try {
          await this.autoCommit(statement);
          break;
        } catch (error) {
          const code = neo4jCode(error) ?? '';
          if (/^Neo\.ClientError\.Schema\.\w*AlreadyExists$/.test(code)) break;
          if (!code.startsWith('Neo.TransientError.') || attempt >= 8) throw error;
          await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 200));
        }
      }
    }
    await this.autoCommit(awaitIndexes);
  }

  async verifyConnectivity(): Promise<void> {
    try {
      await this.driver.getServerInfo({ database: this.database });
    } catch (error) {
      throw this.mapError(error);
    }
  }

  close(): Promise<void> {
    this.gate.dispose();
    return this.driver.close();
  }

  /** `commits`: the session may commit, so its bookmark goes to the request's scope. */
  private async withSession<T>(
    mode: 'READ' | 'WRITE',
    commits: boolean,
    use: (s: Session) => Promise<T>,
  ): Promise<T> {
    this.gate.check();
    const signal = callerSignal();
    if (signal?.aborted) throw new CallerGoneError();
    const scope = currentBookmarkScope();
    if (scope && !scope.reached) await this.reachBookmarks(scope);
    const session = this.driver.session({
      database: this.database,
      defaultAccessMode: mode === 'READ' ? neo4j.session.READ : neo4j.session.WRITE,
      bookmarkManager: this.bookmarks,
      ...(scope && scope.incoming.length > 0 ? { bookmarks: [...scope.incoming] } : {}),
    });
    // the caller hung up: closing the session ends its transaction on the server; the work
    // then fails on its next (or current) statement, and its failure is the caller's leaving
    const cancel = () => {
      session.close().catch((error: unknown) => {
        this.logger.debug({ err: error }, 'closing the session of a hung-up caller failed');
      });
    };
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      const value = await use(session);
      if (commits && scope) {
        const last = session.lastBookmarks();
        if (last.some((b) => !scope.incoming.includes(b))) scope.written.push(...last);
      }
      return value;
    } catch (error) {
      if (signal?.aborted) throw new CallerGoneError();
      throw this.mapError(error);
    } finally {
      signal?.removeEventListener('abort', cancel);
      await bestEffort(session.close(), 'the driver drops a connection it cannot close');
    }
  }

  /**
   * Waits, at most bookmarkWaitMs, until the database has the writes a request's bookmarks
   * name, once per request: a session started from them answers its first statement only
   * then. Past the bound the request fails with a 503 and its sessions never start; the
   * waiting session is left to end when the server gives up on the bookmarks
   * (db.transaction.bookmark_ready_timeout), since the driver cannot stop a wait it has sent.
   */
  private async reachBookmarks(scope: BookmarkScope): Promise<void> {
    const session = this.driver.session({
      database: this.database,
      defaultAccessMode: neo4j.session.READ,
      bookmarkManager: this.bookmarks,
      bookmarks: [...scope.incoming],
    });
    const reached = withoutDriverStack(() => session.run(BOOKMARKS_REACHED.text));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(resolve, this.bookmarkWaitMs, 'late');
    });
    const closed = () =>
      bestEffort(session.close(), 'the driver drops a connection it cannot close');
    try {
      if ((await Promise.race([reached, late])) === 'late') {
        reached.then(closed, (error: unknown) => {
          this.logger.debug({ err: error }, 'a bookmark wait given up on ended');
          return closed();
        });
        throw new ServiceUnavailableError(
          `the graph database has not caught up with the X-Graph-Bookmark within ${this.bookmarkWaitMs} ms; retry later`,
          1,
        );
      }
      scope.reached = true;
      await closed();
    } catch (error) {
      if (error instanceof ServiceUnavailableError) throw error;
      await closed();
      throw this.mapError(error);
    } finally {
      clearTimeout(timer);
    }
  }

  private runner(tx: Pick<ManagedTransaction, 'run'>): QueryRunner {
    return queryRunnerOf(
      tx,
      (name, started, ok, serverMs) => this.observe(name, started, ok, serverMs),
      this.traceStatement,
      this.checkParams,
    );
  }

  /**
   * A query's metrics, and a warning for one slower than SLOW_QUERY_MS: with `serverMs`, the
   * share Neo4j reports (serverMsOf), absent for a failed query.
   */
  private observe(name: string, started: number, ok: boolean, serverMs?: number): void {
    const ms = performance.now() - started;
    this.onQuery?.(name, ms, ok);
    if (ms > SLOW_QUERY_MS)
      this.logger.warn({ query: name, ms: Math.round(ms), serverMs }, 'slow cypher query');
  }

  private mapError(error: unknown): unknown {
    if (error instanceof DomainError) return error;
    const failure = neo4jFailure(error, this.timeoutMs);
    if (!failure) return error;
    if (failure.unavailable) {
      this.logger.error({ err: error }, 'neo4j unavailable');
      this.gate.close();
    }
    if (failure.timedOut)
      this.logger.warn({ timeoutMs: this.timeoutMs }, 'neo4j transaction timed out');
    return failure.error;
  }
}
