/**
 * Distributed traces (shared/telemetry/), configured by the standard OpenTelemetry
 * variables and read here like every other setting. Tracing is off unless an OTLP
 * endpoint is named (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT):
 * then no SDK starts and nothing is recorded. OTEL_SDK_DISABLED=true and
 * OTEL_TRACES_EXPORTER=none turn it off with an endpoint set. Spans go over OTLP/HTTP
 * (protobuf by default, JSON with OTEL_EXPORTER_OTLP_PROTOCOL=http/json); gRPC is not
 * offered, so asking for it is a configuration problem rather than silence.
 */
import type { Env } from './envSettings';
import { urlSetting } from './envSettings';

export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** OTEL_TRACES_SAMPLER as the SDK builds it: a root sampler, parent-based or not. */
export interface SamplerSetting {
  root: 'always_on' | 'always_off' | 'traceidratio';
  /** Follow the caller's sampled flag (the parentbased_* samplers). */
  parentBased: boolean;
  /** OTEL_TRACES_SAMPLER_ARG of traceidratio (0..1; default 1). */
  ratio: number;
}

export interface TelemetrySettings {
  /** OTEL_SERVICE_NAME; unset: the process's own name (graph-design-graph-write, ...). */
  serviceName: string | undefined;
  /** OTEL_RESOURCE_ATTRIBUTES (`key=value,...`). */
  resourceAttributes: Record<string, string>;
  /** Where spans are posted: the traces endpoint as given, or the endpoint + /v1/traces. */
  tracesUrl: string;
  protocol: OtlpProtocol;
  /** OTEL_EXPORTER_OTLP_(TRACES_)HEADERS, e.g. a collector's API key. */
  headers: Record<string, string>;
  /** OTEL_EXPORTER_OTLP_(TRACES_)TIMEOUT: the longest one export may take. */
  exportTimeoutMs: number;
  sampler: SamplerSetting;
  /** The batch span processor (OTEL_BSP_*). */
  batch: { scheduledDelayMs: number; maxQueueSize: number; maxExportBatchSize: number };
}

const SAMPLERS: Record<string, Omit<SamplerSetting, 'ratio'>> = {
  always_on: { root: 'always_on', parentBased: false },
  always_off: { root: 'always_off', parentBased: false },
  traceidratio: { root: 'traceidratio', parentBased: false },
  parentbased_always_on: { root: 'always_on', parentBased: true },
  parentbased_always_off: { root: 'always_off', parentBased: true },
  parentbased_traceidratio: { root: 'traceidratio', parentBased: true },
};

function set(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** The first of the signal-specific and the general variable that is set. */
function either(env: Env, suffix: string): { name: string; value: string } | undefined {
  for (const name of [`OTEL_EXPORTER_OTLP_TRACES_${suffix}`, `OTEL_EXPORTER_OTLP_${suffix}`]) {
    const value = set(env, name);
    if (value !== undefined) return { name, value };
  }
  return undefined;
}

/** `key=value,key2=value2`, values percent-encoded (the W3C baggage form the spec uses). */
function keyValues(name: string, raw: string | undefined, problems: string[]) {
  const pairs: Record<string, string> = {};
  for (const part of (raw ?? '').split(',')) {
    if (part.trim() === '') continue;
    const at = part.indexOf('=');
    const key = at > 0 ? part.slice(0, at).trim() : '';
    if (key === '') {
      problems.push(`${name} needs key=value entries, got ${JSON.stringify(part.trim())}`);
      continue;
    }
    try {
      pairs[key] = decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      problems.push(`${name} has a value that is not percent-encoded: ${JSON.stringify(key)}`);
    }
  }
  return pairs;
}

function positiveInt(env: Env, name: string, fallback: number, problems: string[]): number {
  const raw = set(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    problems.push(`${name} must be an integer >= 1, got ${JSON.stringify(raw)}`);
    return fallback;
  }
  return Number(raw);
}

function samplerSetting(env: Env, problems: string[]): SamplerSetting {
  const name = (set(env, 'OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on').toLowerCase();
  const kind = SAMPLERS[name];
  if (!kind)
    problems.push(`OTEL_TRACES_SAMPLER must be one of ${Object.keys(SAMPLERS).join(', ')}`);
  const arg = set(env, 'OTEL_TRACES_SAMPLER_ARG');
  const ratio = arg === undefined ? 1 : Number(arg);
  if (kind?.root === 'traceidratio' && !(ratio >= 0 && ratio <= 1))
    problems.push(
      `OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, got ${JSON.stringify(arg)}`,
    );
  return {
    ...(kind ?? SAMPLERS.parentbased_always_on),
    ratio: ratio >= 0 && ratio <= 1 ? ratio : 1,
  };
}

/** The tracing settings, or undefined when tracing is off. */
export function telemetrySettings(env: Env, problems: string[]): TelemetrySettings | undefined {
  const disabled = set(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true';
  const exporter = set(env, 'OTEL_TRACES_EXPORTER')?.toLowerCase() ?? 'otlp';
  if (exporter !== 'otlp' && exporter !== 'none')
    problems.push(`OTEL_TRACES_EXPORTER must be otlp or none, got ${JSON.stringify(exporter)}`);
  const traces = set(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const general = set(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (disabled || exporter !== 'otlp' || (traces === undefined && general === undefined))
    return undefined;
  const schemes = ['http', 'https'];
  // the general endpoint is a base: each signal has its path under it
  const tracesUrl = traces
    ? urlSetting(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', traces, schemes, problems)
    : `${urlSetting(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', general as string, schemes, problems).replace(/\/$/, '')}/v1/traces`;
  const protocol = either(env, 'PROTOCOL') ?? {
    name: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    value: 'http/protobuf',
  };
  if (protocol.value !== 'http/protobuf' && protocol.value !== 'http/json')
    problems.push(
      `${protocol.name} must be http/protobuf or http/json, got ${JSON.stringify(protocol.value)}`,
    );
  const headers = either(env, 'HEADERS');
  const timeout = either(env, 'TIMEOUT');
  return {
    serviceName: set(env, 'OTEL_SERVICE_NAME'),
    resourceAttributes: keyValues(
      'OTEL_RESOURCE_ATTRIBUTES',
      set(env, 'OTEL_RESOURCE_ATTRIBUTES'),
      problems,
    ),
    tracesUrl,
    protocol: protocol.value === 'http/json' ? 'http/json' : 'http/protobuf',
    headers: headers ? keyValues(headers.name, headers.value, problems) : {},
    exportTimeoutMs: timeout ? positiveInt(env, timeout.name, 10_000, problems) : 10_000,
    sampler: samplerSetting(env, problems),
    batch: {
      scheduledDelayMs: positiveInt(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000, problems),
      maxQueueSize: positiveInt(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048, problems),
      maxExportBatchSize: positiveInt(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512, problems),
    },
  };
}
