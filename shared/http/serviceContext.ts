/** What every service's commands receive, wired by hand at start-up. */
import type { Config } from '../config/config';
import type { Logger } from '../logging/logger';
import type { Executor } from '../neo4j/executor';

export interface ServiceContext {
  executor: Executor;
  config: Config;
  logger: Logger;
}
