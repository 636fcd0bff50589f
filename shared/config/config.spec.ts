/** Unit tests of configuration loading: defaults, validation, all problems at once. */
import { expect } from 'chai';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('uses the documented defaults (interpretations "Limits")', () => {
    const config = loadConfig({});
    expect(config.port).to.equal(8080);
    expect(config.limits).to.include({
      projectLimit: 100,
      branchLimit: 25,
      rateLimitReadPerMin: 1200,
      rateLimitWritePerMin: 300,
      maxDeltasPerBatch: 1000,
    });
    expect(config.idempotencyTtlSeconds).to.equal(86400);
    expect(config.serviceVersion).to.match(/^\d+\.\d+\.\d+/);
  });

  it('reports every problem at once', () => {
    try {
      loadConfig({ PORT: 'eighty', PROJECT_LIMIT: '0', REDIS_URL: 'http://x', LOG_LEVEL: 'loud' });
      expect.fail('expected a ConfigError');
    } catch (error) {
      expect(error).to.be.instanceOf(ConfigError);
      expect((error as ConfigError).problems).to.have.length(4);
    }
  });
});
