/**
 * BullMQ jobs in traces (no instrumentation exists for them). A job is queued inside a
 * `<queue> publish` span of the request that queues it, whose context travels in the
 * job's data (`trace_context`, W3C traceparent/tracestate). The worker runs each job
 * in a `<queue> process` span of its own trace, linked to that context: a purge may
 * run long after the request, be retried, or be queued again by the worker's sweep, so
 * it is not a child of the request but points back at it. With tracing off no context
 * is added (the job's data is as before) and processors run unwrapped.
 */
import {
  context,
  Link,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { Job, Processor } from 'bullmq';

const tracer = trace.getTracer('graph-design-service/jobs');

/** What a job's data carries of the context that queued it. */
export interface JobTraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

/** The job-data field that carries it. */
export interface TracedJobData {
  trace_context?: JobTraceCarrier;
}

/**
 * Runs `send` (which adds the job) in a PRODUCER span under the active span, handing
 * it the data field to add. Without an active span (the worker's sweep) or with tracing
 * off, `send` runs as is with nothing to add.
 */
export async function publishJob<T>(
  queue: string,
  jobName: string,
  send: (traced: TracedJobData) => Promise<T>,
): Promise<T> {
  if (!trace.getActiveSpan()) return send({});
  return tracer.startActiveSpan(
    `${queue} publish`,
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        'messaging.system': 'bullmq',
        'messaging.operation.type': 'send',
        'messaging.destination.name': queue,
        'gds.job.name': jobName,
      },
    },
    async (span) => {
      const carrier: JobTraceCarrier = {};
      propagation.inject(context.active(), carrier);
      try {
        return await send(carrier.traceparent ? { trace_context: carrier } : {});
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** `processor` run in a CONSUMER span per job, linked to the context its data carries. */
export function tracedProcessor<D, R>(queue: string, processor: Processor<D, R>): Processor<D, R> {
  return (job: Job<D, R>, token?: string, signal?: AbortSignal) => {
    const carrier = (job.data as TracedJobData | undefined)?.trace_context;
    const queued = carrier
      ? trace.getSpanContext(propagation.extract(ROOT_CONTEXT, carrier))
      : undefined;
    const links: Link[] = queued ? [{ context: queued }] : [];
    return tracer.startActiveSpan(
      `${queue} process`,
      {
        kind: SpanKind.CONSUMER,
        root: true,
        links,
        attributes: {
          'messaging.system': 'bullmq',
          'messaging.operation.type': 'process',
          'messaging.destination.name': queue,
          'messaging.message.id': job.id ?? '',
          'gds.job.name': job.name,
          'gds.job.attempt': job.attemptsMade + 1,
        },
      },
      async (span) => {
        try {
          return await processor(job, token, signal);
        } catch (error) {
          span.setAttribute('error.type', error instanceof Error ? error.name : 'error');
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw error;
        } finally {
          span.end();
        }
      },
    );
  };
}
