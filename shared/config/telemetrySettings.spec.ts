/** Unit tests of the OTEL_* settings: off unless an endpoint is named, the standard defaults, problems. */
import { expect } from 'chai';
import { ConfigError, loadConfig } from './config';

const DEVELOPMENT = { GDS_ENV: 'development' };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ ...DEVELOPMENT, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('telemetry settings (OTEL_*)', () => {
  it('leaves tracing off when no OTLP endpoint is set, whatever else is', () => {
    expect(loadConfig(DEVELOPMENT).telemetry).to.equal(undefined);
    expect(
      loadConfig({ ...DEVELOPMENT, OTEL_SERVICE_NAME: 'gds', OTEL_TRACES_SAMPLER: 'always_on' })
        .telemetry,
    ).to.equal(undefined);
  });

  it('turns off with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none despite an endpoint', () => {
    const endpoint = { ...DEVELOPMENT, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(loadConfig(endpoint).telemetry).to.not.equal(undefined);
    expect(loadConfig({ ...endpoint, OTEL_SDK_DISABLED: 'true' }).telemetry).to.equal(undefined);
    expect(loadConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }).telemetry).to.equal(undefined);
  });

  it('posts to the endpoint’s /v1/traces with the standard defaults', () => {
    const telemetry = loadConfig({
      ...DEVELOPMENT,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
    }).telemetry;
    expect(telemetry).to.deep.include({
      serviceName: undefined,
      tracesUrl: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      exportTimeoutMs: 10_000,
      sampler: { root: 'always_on', parentBased: true, ratio: 1 },
      batch: { scheduledDelayMs: 5000, maxQueueSize: 2048, maxExportBatchSize: 512 },
    });
  });

  it('takes the traces endpoint as given, and signal-specific settings over general ones', () => {
    const telemetry = loadConfig({
      ...DEVELOPMENT,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://general:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp/spans',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=general',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'api-key=a%20b,tenant=t1',
      OTEL_SERVICE_NAME: 'gds-eu',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,team=graph',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_BSP_SCHEDULE_DELAY: '250',
    }).telemetry;
    expect(telemetry).to.deep.include({
      tracesUrl: 'https://traces.example/otlp/spans',
      protocol: 'http/json',
      headers: { 'api-key': 'a b', tenant: 't1' },
      serviceName: 'gds-eu',
      resourceAttributes: { 'deployment.environment': 'prod', team: 'graph' },
      sampler: { root: 'traceidratio', parentBased: true, ratio: 0.25 },
    });
    expect(telemetry?.batch.scheduledDelayMs).to.equal(250);
  });

  it('reports every bad OTEL_* value at once (gRPC is not offered)', () => {
    const problems = problemsOf({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4317',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_TRACES_SAMPLER: 'sometimes',
      OTEL_BSP_SCHEDULE_DELAY: '-1',
      OTEL_RESOURCE_ATTRIBUTES: 'novalue',
    });
    expect(problems.join('\n')).to.include('OTEL_EXPORTER_OTLP_ENDPOINT');
    expect(problems.join('\n')).to.include(
      'OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json',
    );
    expect(problems.join('\n')).to.include('OTEL_TRACES_SAMPLER must be one of');
    expect(problems.join('\n')).to.include('OTEL_BSP_SCHEDULE_DELAY');
    expect(problems.join('\n')).to.include('OTEL_RESOURCE_ATTRIBUTES');
    expect(
      problemsOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_TRACES_SAMPLER: 'traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '2',
      }),
    ).to.deep.equal(['OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, got "2"']);
    expect(problemsOf({ OTEL_TRACES_EXPORTER: 'zipkin' })).to.deep.equal([
      'OTEL_TRACES_EXPORTER must be otlp or none, got "zipkin"',
    ]);
  });
});
