/**
 * The statements kept whole (services/<name>/store/statements/*.cypher) hold the rules
 * defined once in TypeScript: the visibility rule (visibility.ts), the index each lookup
 * names, a kept finding's record id (findingRecordQueries.ts findingIdCypher, with a code
 * of findingRules.ts), a Touch record's shape (trailQueries.ts touchOf), and the clauses
 * several statements share (a first write, a removal, publishing a batch, the branch's
 * lock, whether findings are kept): each check derives the rule's text from its one
 * definition and finds it, exactly, wherever a statement applies the rule, so that a copy
 * in a statement cannot drift from the definition unnoticed.
 */
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { compactCypher } from '../../../shared/neo4j/compactCypher';
import { batchWritableCypher, lockedBranchAccessCypher } from '../../branches';
import { SUBJECT_OF_CODE } from '../findingRules';
import { publishBatchCypher } from './changeQueries';
import { CHAIN_STEPS } from './deltaQueries';
import { parentKindCypher } from './graphReadQueries';
import { findingIdCypher, keptThrough } from './findingRecordQueries';
import { WIRE_RULES } from './findingQueries';
import { createStatesBody, newLineStatesBody, removeStatesBody } from './recordWriteQueries';
import {
  COLLECT_EDGE_ROWS,
  descendantIdsOf,
  descendantsOf,
  EDGES_AT,
  HAS_CHILD,
  NODE_AT,
  NODE_MAP,
  PORTS_OF,
  VISIBLE_NODE,
  WIRES_ON_PORT,
} from './scopedReadFragments';
import { BRANCH_VIEW, SUBTREE_BY_DEPTH } from './scopedReadQueries';
import { mergedTouchesCypher, recordChangeCypher, touchOf } from './trailQueries';
import { allStates, RecordLabel, seek, statesPage, visible, visibleRecord } from './visibility';

const SERVICES = join(__dirname, '..', '..');
/** Loads a store module as the service does (CommonJS). */
const load = createRequire(__filename);

/** Every statement kept whole, by `service/name`, as sent (compact). */
function keptStatements(): Map<string, string> {
  const found = new Map<string, string>();
  for (const service of readdirSync(SERVICES)) {
    const dir = join(SERVICES, service, 'store', 'statements');
    if (!existsSync(dir)) continue; // a service with no statements kept whole
    const files = readdirSync(dir).filter((f) => f.endsWith('.cypher'));
    for (const file of files)
      found.set(
        `${service}/${file.slice(0, -'.cypher'.length)}`,
        compactCypher(readFileSync(join(dir, file), 'utf8')),
      );
  }
  return found;
}

const statements = keptStatements();
const isQuery = (value: unknown): value is { name: string; text: string } =>
  typeof value === 'object' && value !== null && 'name' in value && 'text' in value;
const RECORD_LABELS: readonly string[] = ['GNode', 'Port', 'Edge', 'GFinding'];
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const named = (name: string): string => {
  const text = statements.get(`graph/${name}`);
  if (text === undefined) throw new Error(`no statement graph/${name}`);
  return text;
};

/**
 * `text` with every application of the visibility rule replaced by a mark: for each
 * record variable a statement tests for shadowing (its `shadow_<s>` lookup), the rule's
 * forms for that variable, label and view, derived from visibility.ts.
 */
function withoutVisibilityRule(text: string): {
  rest: string;
  applied: number;
  tombstones: number;
} {
  let rest = text;
  let applied = 0;
  let tombstones = 0;
  // keyed on the view's line (allStates, statesPage), or on it for another line's record
  // alone (visibleRecord)
  const shadows =
    /MATCH \(shadow_(\w+):(\w+) \{branch_id: (?:CASE WHEN \1\.branch_id <> )?(\$?[\w.]+?)\.line(?: THEN \3\.line END)?, id: \1\.id\}\)/g;
  const seen = new Set<string>();
  for (const [, s, label, view] of text.matchAll(shadows)) {
    if (seen.has(`${s}:${label}:${view}`)) continue;
    seen.add(`${s}:${label}:${view}`);
    const l = label as RecordLabel;
    const [head, middle, tail] = compactCypher(allStates(s, l, view, '\u0000')).split('\u0000');
    const [pageHead, pageMiddle, pageTail] = compactCypher(statesPage(s, l, view, '\u0000')).split(
      '\u0000',
    );
    const forms: (string | RegExp)[] = [
      compactCypher(statesPage(s, l, view)),
      compactCypher(visible(s, l, view)),
      compactCypher(visibleRecord(s, l, view)),
      new RegExp(`${escape(head)}(.+?)${escape(middle)}\\1${escape(tail)}`, 'g'),
      // a page of the records a filter keeps (statesPage's `where`)
      new RegExp(`${escape(pageHead)}(.+?)${escape(pageMiddle)}\\1${escape(pageTail)}`, 'g'),
    ];
    forms.forEach((form, i) => {
      const before = rest;
      rest =
        typeof form === 'string'
          ? rest.split(form).join(' ⟨visible⟩ ')
          : rest.replace(form, ' ⟨allStates⟩ ');
      if (rest !== before) applied += 1;
      if (rest !== before && i === 2) tombstones += 1; // visibleRecord: tombstones admitted
    });
  }
  return { rest, applied, tombstones };
}

describe('the statements kept whole hold the rules defined once (statementRules)', () => {
  it('finds the statements kept whole, each one a store module declares by name', () => {
    expect(statements.size).to.be.greaterThan(40);
    const declared = new Set<string>();
    for (const service of new Set([...statements.keys()].map((key) => key.split('/')[0]))) {
      const store = join(SERVICES, service, 'store');
      for (const file of readdirSync(store).filter((f) => /(?<!\.spec)\.ts$/.test(f)))
        for (const value of Object.values(load(join(store, file)) as Record<string, unknown>))
          // a statement, or a table of them (by depth, by label)
          for (const query of isQuery(value) ? [value] : Object.values(value ?? {}))
            if (isQuery(query)) declared.add(`${service}/${query.name}`);
    }
    expect([...statements.keys()].filter((key) => !declared.has(key))).to.deep.equal([]);
  });

  describe('the visibility rule (visibility.ts)', () => {
    for (const [name, text] of statements)
      if (text.includes('shadow_'))
        it(`${name} reads through the rule as visibility.ts defines it`, () => {
          const { rest, applied, tombstones } = withoutVisibilityRule(text);
          expect(applied).to.be.greaterThan(0);
          // a read that admits tombstones (visibleRecord, not visible) is one that asks
          // which ids the view has a tombstone of: the add-run facts' `tombstoned`
          if (tombstones > 0)
            expect(name).to.be.oneOf(['graph/prefetchAddRun', 'graph/lockAndPrefetchAddRun']);
          const left = rest.indexOf('shadow_');
          expect(
            left,
            `a shadow test that is not the rule's: ${rest.slice(left - 300, left + 200)}`,
          ).to.equal(-1);
        });
  });

  describe('index hints (visibility.ts seek)', () => {
    for (const [name, text] of statements)
      it(`${name} names an index of the store in each hint`, () => {
        for (const [hint, s, label, props] of text.matchAll(
          /USING INDEX SEEK (\w+):(\w+)\(([^)]*)\)/g,
        )) {
          if (!RECORD_LABELS.includes(label)) continue; // the schema's other labels: graphSchema.ts
          const keys = props.split(', ');
          if (keys.length === 1 && keys[0] === 'id') {
            // statesWithIds: the label's (id) index, which holds every line's records
            expect(label, hint).to.be.oneOf(['GNode', 'Port', 'Edge']);
            continue;
          }
          expect(keys[0], hint).to.equal('branch_id');
          expect(hint).to.equal(seek(s, label as RecordLabel, keys.slice(1)));
        }
      });

    // A key after branch_id tested against a list (`s.id IN [...]`) leaves the planner a
    // second seek that honours the hint: branch_id alone, with `id IS NOT NULL`, the list
    // left to a filter. Planned on a small store (and kept by replan=skip), that reads
    // every record of the line on each run. One value per seek, in a subquery per value
    // of the list, leaves it no such choice.
    for (const [name, text] of statements)
      it(`${name} seeks each key after branch_id by one value, never by a list`, () => {
        for (const m of text.matchAll(/USING INDEX SEEK (\w+):(\w+)\(branch_id, ([^)]*)\)/g)) {
          const [hint, s, , props] = m;
          const where = text.slice(m.index + hint.length).split(/ (?:MATCH|RETURN|WITH|CALL) /)[0];
          for (const key of props.split(', '))
            expect(where, hint).not.to.match(new RegExp(`\\b${s}\\.${key} IN `));
        }
      });
  });

  describe("a kept finding's record id (findingIdCypher, findingRules.ts)", () => {
    for (const [name, text] of statements)
      if (/'\w+:' \+/.test(text))
        it(`${name} names records by findingIdCypher of a code of findingRules.ts`, () => {
          for (const [whole, code, locator] of text.matchAll(/'(\w+):' \+ ([\w.]+)/g)) {
            expect(Object.keys(SUBJECT_OF_CODE), whole).to.include(code);
            expect(whole).to.equal(findingIdCypher(code, locator));
          }
        });
  });

  describe('a Touch record (trailQueries.ts touchOf)', () => {
    for (const [name, text] of statements)
      if (text.includes('(:Touch {'))
        it(`${name} creates Touch records as touchOf`, () => {
          const shapes = /\(:Touch \{branch_id: ([^,]+), version: ([^,]+), key: (\w+)\.key/g;
          for (const m of text.matchAll(shapes)) {
            const expected = compactCypher(touchOf(m[1], m[2], m[3]));
            expect(text.slice(m.index, m.index + expected.length)).to.equal(expected);
          }
        });
  });

  describe('whether findings are kept (findingRecordQueries.ts keptThrough)', () => {
    for (const [name, text] of statements)
      if (text.includes('.findings_from <='))
        it(`${name} asks it as keptThrough`, () => {
          const asks =
            /\(coalesce\((\w+)\.findings_from <= (\$?\w+)\.ver, false\) AND \(\2\.line = \2\.main OR coalesce\((\w+)\.findings_from/g;
          let count = 0;
          for (const m of text.matchAll(asks)) {
            const expected = compactCypher(keptThrough(m[1], m[3], m[2]));
            expect(text.slice(m.index, m.index + expected.length)).to.equal(expected);
            count += 1;
          }
          // each asks of the line's row and of main's
          expect(2 * count).to.equal(text.split('.findings_from <=').length - 1);
        });
  });

  /** Clauses shared by statements, each defined once: the statements that hold each. */
  const held: { statement: string; definition: string; text: string }[] = [
    ...(['GNode', 'Port', 'Edge'] as const).map((label, i) => ({
      statement: 'createGraphStates',
      definition: `createStatesBody(${label})`,
      text: createStatesBody(
        label,
        ['$nodes', '$ports', '$edges'][i],
        ['nodes', 'ports', 'edges'][i],
      ),
    })),
    ...(['GNode', 'Port', 'Edge', 'GFinding'] as const).map((label, i) => ({
      statement: 'createNewLineStates',
      definition: `newLineStatesBody(${label})`,
      text: newLineStatesBody(
        label,
        ['$nodes', '$ports', '$edges', '$findings'][i],
        ['nodes', 'ports', 'edges', 'findings'][i],
      ),
    })),
    ...(['GNode', 'Port', 'Edge'] as const).map((label, i) => ({
      statement: 'lockAndPrefetchAddRun',
      definition: `createStatesBody(${label})`,
      text: createStatesBody(
        label,
        ['$nodes', '$ports', '$edges'][i],
        ['nodesWritten', 'portsWritten', 'edgesWritten'][i],
        'view',
        'tombstoned',
      ),
    })),
    {
      statement: 'lockAndPrefetchAddRun',
      definition: 'createStatesBody(GFinding)',
      text: createStatesBody('GFinding', 'opened', 'openedCount', 'view'),
    },
    {
      statement: 'recordBatch',
      definition: 'createStatesBody(GFinding)',
      text: createStatesBody('GFinding', '$findings.opened', 'opened'),
    },
    ...(['GNode', 'Port', 'Edge', 'GFinding'] as const).map((label) => ({
      statement: `remove${label}States`,
      definition: `removeStatesBody(${label})`,
      text: removeStatesBody(label, '$ids'),
    })),
    {
      statement: 'recordBatch',
      definition: 'removeStatesBody(GFinding)',
      text: removeStatesBody('GFinding', '$findings.closed'),
    },
    {
      statement: 'lockAndPrefetchAddRun',
      definition: 'removeStatesBody(GFinding)',
      text: removeStatesBody('GFinding', 'closed', 'view'),
    },
    ...['recordMergedChange', 'backfillMergeRecord'].map((statement) => ({
      statement,
      definition: 'mergedTouchesCypher',
      text: mergedTouchesCypher('c'),
    })),
    {
      statement: 'recordBatch',
      definition: 'publishBatchCypher',
      text: publishBatchCypher('b', { nodes: '$nodes', edges: '$edges', bytes: '$bytes' }),
    },
    {
      statement: 'lockAndPrefetchAddRun',
      definition: 'publishBatchCypher',
      text: publishBatchCypher('b', {
        nodes: 'b.node_count + $record.nodes',
        edges: 'b.edge_count + $record.edges',
        bytes: 'coalesce(b.stored_bytes, 0) + $change.deltas_bytes',
      }),
    },
    { statement: 'recordChange', definition: 'recordChangeCypher', text: recordChangeCypher('b') },
    {
      statement: 'lockAndPrefetchAddRun',
      definition: "branches' lockedBranchAccessCypher",
      text: lockedBranchAccessCypher(),
    },
    {
      statement: 'lockAndPrefetchAddRun',
      definition: "branches' batchWritableCypher",
      text: batchWritableCypher('b'),
    },
    { statement: 'findingSubjects', definition: 'findingQueries.ts WIRE_RULES', text: WIRE_RULES },
    { statement: 'wireFindings', definition: 'findingQueries.ts WIRE_RULES', text: WIRE_RULES },
    {
      statement: 'readParentKindNodeIds',
      definition: 'statesPage(GNode) of the parent kinds (graphReadQueries.ts parentKindCypher)',
      text: statesPage('n', 'GNode', '$view', parentKindCypher('n')),
    },
    {
      statement: 'readLeafKindNodesWithPorts',
      definition: 'statesPage(GNode) of the other kinds (NOT graphReadQueries.ts parentKindCypher)',
      text: statesPage('n', 'GNode', '$view', `NOT ${parentKindCypher('n')}`),
    },
    ...SUBTREE_BY_DEPTH.map((query, i) => ({
      statement: query.name,
      definition: `scopedReadFragments.ts descendantsOf(${i + 1} levels)`,
      text: descendantsOf('root', 'found', i + 1),
    })),
    // the scoped reads find a port's wires at the one end its channel allows
    ...[
      ...SUBTREE_BY_DEPTH.map((query) => query.name),
      'readBoundaryOf',
      'perimeterWiresOf',
      'readTopLevelOf',
      'readNeighborhoodOf',
    ].map((statement) => ({
      statement,
      definition: 'scopedReadFragments.ts WIRES_ON_PORT',
      text: WIRES_ON_PORT,
    })),
    // the other clauses the scoped reads share, each where a statement applies it
    ...(
      [
        ...SUBTREE_BY_DEPTH.flatMap((query) => [
          [query.name, "NODE_AT('root', '$nodeId')", NODE_AT('root', '$nodeId')],
          [query.name, "PORTS_OF('root')", PORTS_OF('root')],
          [query.name, "PORTS_OF('n')", PORTS_OF('n')],
          [query.name, "HAS_CHILD('n')", HAS_CHILD('n')],
        ]),
        ['readBoundaryOf', "PORTS_OF('bn')", PORTS_OF('bn')],
        ['readBoundaryOf', "PORTS_OF('c')", PORTS_OF('c')],
        ['readBoundaryOf', "descendantIdsOf('start', 'below')", descendantIdsOf('start', 'below')],
        ['readBoundaryOf', 'COLLECT_EDGE_ROWS', COLLECT_EDGE_ROWS],
        ['perimeterWiresOf', 'COLLECT_EDGE_ROWS', COLLECT_EDGE_ROWS],
        [
          'descendantIdsFrom',
          "descendantIdsOf('start', 'found')",
          descendantIdsOf('start', 'found'),
        ],
        ['readTopLevelOf', "PORTS_OF('n')", PORTS_OF('n')],
        ['readTopLevelOf', "EDGES_AT('ids')", EDGES_AT('ids')],
        ['readTopLevelOf', "VISIBLE_NODE('n')", VISIBLE_NODE('n')],
        ['readNeighborhoodOf', "PORTS_OF('n')", PORTS_OF('n')],
        ['readNeighborhoodOf', "PORTS_OF('nb')", PORTS_OF('nb')],
        ['readNeighborhoodOf', "EDGES_AT('ids')", EDGES_AT('ids')],
        ['readNeighborhoodOf', "VISIBLE_NODE('n')", VISIBLE_NODE('n')],
      ] as const
    ).map(([statement, clause, text]) => ({
      statement,
      definition: `scopedReadFragments.ts ${clause}`,
      text,
    })),
    // a pinned scoped read shows each node at its position at the line's head
    ...[
      ...SUBTREE_BY_DEPTH.flatMap((query) => [`${query.name}:root`, `${query.name}:n`]),
      'readBoundaryOf:bn',
      'readBoundaryOf:c',
      'readTopLevelOf:n',
      'readNeighborhoodOf:n',
      'readNeighborhoodOf:nb',
    ].map((at) => {
      const [statement, n] = at.split(':');
      return { statement, definition: `scopedReadFragments.ts NODE_MAP(${n})`, text: NODE_MAP(n) };
    }),
  ];
  describe('clauses several statements share', () => {
    for (const { statement, definition, text } of held)
      it(`${statement} holds ${definition}`, () => {
        expect(named(statement)).to.include(compactCypher(text));
      });
    const head = compactCypher(BRANCH_VIEW);
    for (const [name, text] of statements)
      if (
        text
          .replace(/^CYPHER replan=skip /, '')
          .startsWith(head.slice(0, head.indexOf(' OPTIONAL')))
      )
        it(`${name} starts as scopedReadQueries.ts BRANCH_VIEW (branches' access row, VIEW_OF)`, () => {
          expect(text.replace(/^CYPHER replan=skip /, '').startsWith(head)).to.equal(true);
        });
    for (const statement of ['ancestorChains', 'prefetchAddRun', 'lockAndPrefetchAddRun'])
      it(`${statement} walks CHAIN_STEPS levels of ancestors (deltaQueries.ts)`, () => {
        const text = named(statement);
        expect(text).to.include(`AS l${CHAIN_STEPS} }`);
        expect(text).not.to.include(`AS l${CHAIN_STEPS + 1} }`);
      });
  });
});
