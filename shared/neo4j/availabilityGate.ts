/**
 * Fail fast while Neo4j is unreachable. The first query that finds the database unavailable closes
 * the gate; until a probe (a connectivity check, repeated every `probeIntervalMs`, the first one at
 * once) succeeds again, every query fails at once with ServiceUnavailableError instead of waiting
 * out the driver's connection and retry timeouts. So during an outage requests answer 503 in
 * milliseconds, and service resumes by itself when the database is back.
 */
import type { Logger } from 'pino';
import { ServiceUnavailableError } from '../errors/domainErrors';

export class AvailabilityGate {
  private closedAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private probing = false;

  constructor(
    private readonly probe: () => Promise<void>,
    private readonly logger: Logger,
    private readonly probeIntervalMs = 1000,
  ) {}

  get open(): boolean {
    return this.closedAt === undefined;
  }

  /** Throws ServiceUnavailableError while the database is known to be unreachable. */
  check(): void {
    if (this.closedAt !== undefined) {
      throw new ServiceUnavailableError('the graph database is unavailable, retry later');
    }
  }

  /** Called when a query found the database unavailable. */
  close(): void {
    if (this.closedAt !== undefined) return;
    this.closedAt = Date.now();
    this.logger.error('neo4j unavailable: failing fast until it answers again');
    this.runProbe();
    this.timer = setInterval(() => this.runProbe(), this.probeIntervalMs);
    this.timer.unref();
  }

  /** Stops probing (the executor is closing). */
  dispose(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private runProbe(): void {
    if (this.probing || this.closedAt === undefined) return;
    this.probing = true;
    this.probe().then(
      () => {
        this.probing = false;
        if (this.closedAt === undefined) return;
        this.logger.info({ downMs: Date.now() - this.closedAt }, 'neo4j answers again');
        this.closedAt = undefined;
        this.dispose();
      },
      () => {
        this.probing = false;
      },
    );
  }
}
