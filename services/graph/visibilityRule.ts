/**
 * The visibility rule of the versioned store as the Cypher fragments that define it
 * (store/visibility.ts), offered through graph's index: the definition every statement
 * kept whole that applies the rule is held to (store/statementRules.spec.ts, over every
 * service's store/statements/), and what the benches' bare Cypher baselines are built
 * from (bench/readQueries.ts, bench/layoutBench.ts). No service composes a statement
 * from them.
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
