/**
 * The visibility rule of the versioned store as the Cypher fragments other services'
 * store queries compose (merge, graph files, purge): functions that build query text,
 * not queries, kept in store/visibility.ts beside the graph's own queries and offered
 * to other services from here through graph's index.
 */
export {
  allStates,
  optionalStateOf,
  OPEN_CYPHER,
  seek,
  stateOf,
  statesWhere,
  VIEW_LINES,
  visible,
  visibleRecord,
} from './store/visibility';
export type { RecordLabel, StateLabel } from './store/visibility';
