/** What every service's commands receive, wired by hand at start-up. */
import type { Config } from '../config/config';
import type { PurgeRequests } from '../jobs/purgeRequests';
import type { Logger } from '../logging/logger';
import type { Executor } from '../neo4j/executor';

export interface ServiceContext {
  executor: Executor;
  config: Config;
  logger: Logger;
  /** Background purge hook; when absent, the worker's sweep catches up. */
  purges?: PurgeRequests;
}
