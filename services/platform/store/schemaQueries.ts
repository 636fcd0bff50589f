/** Cypher of schema creation that belongs to no one service. */
import { cypher } from '../../../shared/neo4j/namedQuery';

/** Waits (up to 300 s) until every index is online, so the first queries use them. */
export const awaitIndexes = cypher('awaitIndexes', 'CALL db.awaitIndexes(300)');
