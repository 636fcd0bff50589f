/**
 * Distributed traces of a process: started once by the process start-up
 * (services/platform/runProcess.ts) from the OTEL_* settings shared/config read. With no
 * endpoint configured nothing starts and the SDK is not even loaded; every helper here
 * then works on OpenTelemetry's no-op API (no span is made, nothing is recorded).
 * What a trace holds, and what it never holds, is in docs/OPERATIONS.md ("Traces").
 */
import { context, diag, DiagLogLevel, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { getRPCMetadata, RPCMetadata, RPCType, setRPCMetadata } from '@opentelemetry/core';
import type { TelemetrySettings } from '../config/telemetrySettings';
import type { Logger } from '../logging/logger';

export interface Telemetry {
  /** Whether spans are recorded (an endpoint was configured). */
  readonly tracing: boolean;
  /** Exports the spans still queued, then stops (bounded by the export timeout). */
  close(): Promise<void>;
}

const OFF: Telemetry = { tracing: false, close: async () => undefined };

/**
 * Starts tracing when `settings` is set (else returns a Telemetry that does nothing).
 * `processName` is the process's service.name unless OTEL_SERVICE_NAME sets one.
 */
export async function startTelemetry(options: {
  settings: TelemetrySettings | undefined;
  processName: string;
  serviceVersion: string;
  logger: Logger;
}): Promise<Telemetry> {
  const { settings, logger } = options;
  if (!settings) return OFF;
  // the SDK's own failures (an export the collector refused or never answered)
  diag.setLogger(
    {
      error: (message, ...args) => logger.warn({ detail: args.map(String) }, `otel: ${message}`),
      warn: () => undefined,
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    DiagLogLevel.ERROR,
  );
  // loaded here, not imported above: a process without tracing never loads the SDK
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startTracingSdk } = require('./tracingSdk') as typeof import('./tracingSdk');
  const sdk = startTracingSdk(settings, options.processName, options.serviceVersion);
  logger.info(
    { url: settings.tracesUrl, protocol: settings.protocol, sampler: settings.sampler },
    'tracing on',
  );
  return {
    tracing: true,
    close: async () => {
      await sdk.shutdown();
      diag.disable();
    },
  };
}

/**
 * pino's mixin: `trace_id` and `span_id` on every line logged while a span is active,
 * so a log line leads to its trace. Given to the logger only when tracing is on.
 */
export function traceLogFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/**
 * Names the request's server span after the operation once the gateway has routed it
 * (`POST /v1/projects/{project_id}/...`, with `gds.operation_id`): before that the span
 * knows only the method, and the path's ids would make every name unique.
 */
export function nameRequestSpan(operationId: string, route: string): void {
  const rpc = getRPCMetadata(context.active());
  if (rpc?.type !== RPCType.HTTP) return;
  rpc.route = route;
  rpc.span.setAttribute('gds.operation_id', operationId);
}

/**
 * Runs `work`, a request answered inside this process (an MCP tool's call of the API,
 * shared/http/injectRequest.ts), in a span of its own that the gateway names after its
 * operation as it does a server span (nameRequestSpan): in a trace, the tool call shows
 * as the API request it is, under the /mcp request's span, which keeps its own name.
 */
export async function inProcessRequestSpan<T extends { status: number }>(
  method: string,
  work: () => Promise<T>,
): Promise<T> {
  return trace
    .getTracer('graph-design-service')
    .startActiveSpan(`${method} (in process)`, { kind: SpanKind.INTERNAL }, async (span) => {
      const rpc: RPCMetadata = { type: RPCType.HTTP, span };
      try {
        const answer = await context.with(setRPCMetadata(context.active(), rpc), work);
        span.setAttribute('http.response.status_code', answer.status);
        return answer;
      } catch (error) {
        // no answer at all (the agent hung up): the span says why
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        if (rpc.route) span.updateName(`${method} ${rpc.route}`);
        span.end();
      }
    });
}
