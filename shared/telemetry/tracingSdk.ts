/**
 * The OpenTelemetry SDK of one process, built from TelemetrySettings (read by
 * shared/config from the OTEL_* variables). Loaded only when tracing is on
 * (telemetry.ts imports it on demand), so a process without an endpoint loads none of it.
 *
 * What records spans:
 * - instrumentation-http: every request a process serves (the probes and /metrics
 *   excepted), with the caller's W3C `traceparent` continued; its query string is not
 *   recorded (url.query), since query parameters may carry what users typed;
 * - instrumentation-undici: the gateway's calls to service processes (fetch), which
 *   carry the context to the service process as a `traceparent` header;
 * - instrumentation-express: route handlers (middleware is not recorded: one span per
 *   middleware of every request cost more than it told);
 * - instrumentation-ioredis: each Redis command made inside a traced request or job
 *   (its command name only, never its keys or values);
 * - by hand: each Neo4j statement (statementSpans.ts) and each BullMQ job (jobTrace.ts).
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { Instrumentation, registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { IncomingMessage } from 'node:http';
import type { SamplerSetting, TelemetrySettings } from '../config/telemetrySettings';

/** Requests nobody needs a trace of: probes and the metrics scrape, many a minute. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

function sampler(setting: SamplerSetting): Sampler {
  const root =
    setting.root === 'always_on'
      ? new AlwaysOnSampler()
      : setting.root === 'always_off'
        ? new AlwaysOffSampler()
        : new TraceIdRatioBasedSampler(setting.ratio);
  return setting.parentBased ? new ParentBasedSampler({ root }) : root;
}

function instrumentations(): Instrumentation[] {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request: IncomingMessage) =>
        UNTRACED_PATHS.has((request.url ?? '').split('?')[0]),
      // an undefined attribute is dropped: the path is kept, its query is not
      startIncomingSpanHook: (request) =>
        (request as IncomingMessage).url?.includes('?') ? { 'url.query': undefined } : {},
    }),
    new UndiciInstrumentation({ requireParentforSpans: true }),
    new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
    new IORedisInstrumentation({
      requireParentSpan: true,
      dbStatementSerializer: (command) => command,
    }),
  ];
}

export interface TracingSdk {
  /** Exports what is still queued, then stops recording (bounded by the export timeout). */
  shutdown(): Promise<void>;
}

/**
 * Starts tracing in this process: the context manager, the W3C propagator, the
 * provider with its sampler and batch exporter, and the instrumentations.
 * `processName` names the process in service.name unless OTEL_SERVICE_NAME does.
 */
export function startTracingSdk(
  settings: TelemetrySettings,
  processName: string,
  serviceVersion: string,
): TracingSdk {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const Exporter = settings.protocol === 'http/json' ? JsonTraceExporter : ProtobufTraceExporter;
  const exporter = new Exporter({
    url: settings.tracesUrl,
    headers: settings.headers,
    timeoutMillis: settings.exportTimeoutMs,
  });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      ...settings.resourceAttributes,
      'service.name': settings.serviceName ?? processName,
      'service.version': serviceVersion,
      'process.pid': process.pid,
    }),
    sampler: sampler(settings.sampler),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        scheduledDelayMillis: settings.batch.scheduledDelayMs,
        maxQueueSize: settings.batch.maxQueueSize,
        maxExportBatchSize: Math.min(
          settings.batch.maxExportBatchSize,
          settings.batch.maxQueueSize,
        ),
        exportTimeoutMillis: settings.exportTimeoutMs,
      }),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  const unregister = registerInstrumentations({ instrumentations: instrumentations() });
  patchLoadedModules();
  return {
    shutdown: async () => {
      unregister();
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/**
 * The instrumentations patch a module when it is required. A process's entry point has
 * loaded http, express and ioredis before its configuration is read (and so before
 * tracing can start); requiring them again now hands each module's loaded exports to
 * its instrumentation, which patches them in place (prototypes and module functions),
 * before any server or client is made from them.
 */
function patchLoadedModules(): void {
  // require, not import(): the instrumentations see modules through require's hook
  /* eslint-disable @typescript-eslint/no-require-imports */
  require('node:http');
  require('node:https');
  require('express');
  require('ioredis');
  /* eslint-enable @typescript-eslint/no-require-imports */
}
