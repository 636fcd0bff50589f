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
  /**
   * Aborted as the process begins to stop, before it drains: work that would outlast the
   * drain (an event stream, the feed's shared polls) ends on it instead of being cut.
   */
  stopping?: AbortSignal;
}
