/**
 * What the plan warm-up (planWarmup.ts) asks Neo4j besides the statements it plans:
 * when the service's database last started. Neo4j keeps the plans it made for as long as
 * the database runs, so a start later than the one the warm-up followed means the plans
 * are gone and the warm-up is due again.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';

/**
 * The last start of database `$database` (null: the caller's home database, the one a
 * session without a database name uses), as text; no row when there is no such database.
 */
export const databaseStartTime = cypher(
  'databaseStartTime',
  `SHOW DATABASES YIELD name, home, lastStartTime
   WHERE ($database IS NULL AND home) OR name = $database
   RETURN toString(lastStartTime) AS startedAt`,
);
