/**
 * What the plan warm-up (planWarmup.ts) asks Neo4j besides the statements it plans: when
 * the Neo4j process answering started. Neo4j keeps the plans it made in that process's
 * memory, so a start the warm-up has not followed means a process whose plans are gone
 * and the warm-up is due again. (SHOW DATABASES' lastStartTime would not tell it: a
 * database started with its server keeps the time it was created.)
 */
import { cypher } from '../../../shared/neo4j/namedQuery';

/** When the Neo4j process answering started: its JVM's start, epoch milliseconds, as text. */
export const neo4jStartTime = cypher(
  'neo4jStartTime',
  `CALL dbms.queryJmx('java.lang:type=Runtime') YIELD attributes
   RETURN toString(attributes.StartTime.value) AS startedAt`,
);
