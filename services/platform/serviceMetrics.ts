/**
 * Prometheus metrics of the gateway and of each split-mode service process, served at GET /metrics in the
 * text exposition format:
 * - gds_http_requests_total / gds_http_request_duration_seconds per operationId,
 *   method and status (operation_id "none" for paths the document does not have);
 * - gds_neo4j_query_duration_seconds per named query and outcome, fed by the
 *   Executor's onQuery hook;
 * - gds_queue_jobs per BullMQ queue (`decisions`, `purge`) and job state, read
 *   from Redis at scrape time (bounded; a queue that cannot be read is left out
 *   and counted in gds_queue_scrape_errors_total);
 * - gds_rate_limit_refusals_total per bucket (`read`, `write`, `anon`, and `in_flight`
 *   for a key's requests in flight): the 429s of the rate limits;
 * - in the gateway, the stores' gauges (storeGauges.ts: Neo4j and Redis up, Redis
 *   memory against its maxmemory, the maintenance flag);
 * - the prom-client default process metrics (gds_process_*, gds_nodejs_*).
 * Each service instance owns its own Registry, so several in one process (tests)
 * never collide.
 */
import type { Queue } from 'bullmq';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { withinMs } from '../../shared/redis/queueConnection';
import { bestEffort } from '../../shared/async/promises';
import { registerStoreGauges, WatchedStores } from './storeGauges';

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

/** How often a scrape may read the queue depths from Redis (a scrape in between reuses them). */
export const QUEUE_READ_EVERY_MS = 5000;

export interface RequestObservation {
  operationId: string | undefined;
  method: string;
  status: number;
  seconds: number;
}

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'operation_id' | 'method' | 'status'>;
  private readonly latency: Histogram<'operation_id' | 'method' | 'status'>;
  private readonly queries: Histogram<'query' | 'outcome'>;
  private readonly queueErrors: Counter<'queue'>;
  private readonly refusals: Counter<'bucket'>;
  private readonly queues = new Map<string, Queue>();

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'gds_http_requests_total',
      help: 'HTTP requests answered, by OpenAPI operationId, method and status.',
      labelNames: ['operation_id', 'method', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'gds_http_request_duration_seconds',
      help: 'Time from request arrival to the last byte of the answer.',
      labelNames: ['operation_id', 'method', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.queries = new Histogram({
      name: 'gds_neo4j_query_duration_seconds',
      help: 'Duration of each named Cypher query run by the Executor.',
      labelNames: ['query', 'outcome'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.queueErrors = new Counter({
      name: 'gds_queue_scrape_errors_total',
      help: 'Scrapes that could not read a queue (Redis unreachable or slow).',
      labelNames: ['queue'],
      registers,
    });
    this.refusals = new Counter({
      name: 'gds_rate_limit_refusals_total',
      help: 'Requests refused 429 by a rate limit, by bucket (in_flight: the key had too many requests in flight).',
      labelNames: ['bucket'],
      registers,
    });
    for (const bucket of ['read', 'write', 'anon', 'in_flight']) this.refusals.inc({ bucket }, 0);
    const queues = this.queues;
    const queueErrors = this.queueErrors;
    // Queue depths cost Redis round trips: read at most once per QUEUE_READ_EVERY_MS
    // however often (or however many at once) scrapes come, and reused in between. A
    // scrape waits 2.5 s for a read; one that answers later still counts for the next
    // scrapes (the first read of a fresh queue handle can be slow on a loaded machine), and
    // a queue is reported at its last depth read.
    const lastRead = new Map<string, Record<string, number>>();
    let depths: Promise<Map<string, Record<string, number>>> | undefined;
    let readAt = 0;
    const readDepths = async () => {
      await Promise.all(
        [...queues].map(async ([name, queue]) => {
          const reading = queue.getJobCounts(...QUEUE_STATES).then((counts) => {
            lastRead.set(name, counts);
          });
          try {
            await withinMs(2500, reading, `queue ${name}`);
          } catch {
            void bestEffort(reading, 'a late reading lands in lastRead when it comes');
            queueErrors.inc({ queue: name });
          }
        }),
      );
      return lastRead;
    };
    new Gauge({
      name: 'gds_queue_jobs',
      help: `Jobs in each BullMQ queue by state, as last read (at most every ${QUEUE_READ_EVERY_MS / 1000} s).`,
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        if (!depths || Date.now() - readAt >= QUEUE_READ_EVERY_MS) {
          readAt = Date.now();
          depths = readDepths();
        }
        const read = await depths;
        this.reset();
        for (const [queue, counts] of read)
          for (const state of QUEUE_STATES) this.set({ queue, state }, counts[state] ?? 0);
      },
    });
    if (options.defaultMetrics ?? true) {
      collectDefaultMetrics({ register: this.registry, prefix: 'gds_' });
    }
  }

  /** Reports the depth of `queue` under its name. */
  watchQueue(queue: Queue): void {
    this.queues.set(queue.name, queue);
    this.queueErrors.inc({ queue: queue.name }, 0);
  }

  /** Reports whether Neo4j and Redis answer, Redis memory and the maintenance flag. */
  watchStores(stores: WatchedStores): void {
    registerStoreGauges(this.registry, stores);
  }

  /** Counts one request refused by the rate limit of `bucket`. */
  readonly countRefusal = (bucket: string): void => {
    this.refusals.inc({ bucket });
  };

  /** The Executor's onQuery hook. */
  readonly observeQuery = (name: string, ms: number, ok: boolean): void => {
    this.queries.observe({ query: name, outcome: ok ? 'ok' : 'error' }, ms / 1000);
  };

  /** Called by the gateway once per answered request. */
  readonly observeRequest = (request: RequestObservation): void => {
    const labels = {
      operation_id: request.operationId ?? 'none',
      method: request.method,
      status: String(request.status),
    };
    this.requests.inc(labels);
    this.latency.observe(labels, request.seconds);
  };

  contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
