/**
 * A second service in this process, against the suite's Neo4j and Redis, with
 * some limits set low so an abuse test reaches them in a few requests without
 * lowering them for the rest of the suite. Users made by newUser() work on it.
 */
import { Config, loadConfigWith } from '../../shared/config/config';
import { createLogger } from '../../shared/logging/logger';
import { RunningService, startService } from '../../services/gateway/server';
import { ApiClient } from '../support/client';
import { currentHarness, TEST_ENV, TestUser } from '../support/harness';

export interface LimitedService {
  config: Config;
  /** The user's client against this service. */
  api(user: TestUser): ApiClient;
  close(): Promise<void>;
}

export async function startLimited(env: Record<string, string>): Promise<LimitedService> {
  const config = loadConfigWith({ ...TEST_ENV, ...env });
  const service: RunningService = await startService(config, createLogger({ level: 'silent' }));
  const base = new ApiClient(service.url, currentHarness().contract);
  return {
    config,
    api: (user) => base.withToken(user.token),
    close: () => service.close(),
  };
}
