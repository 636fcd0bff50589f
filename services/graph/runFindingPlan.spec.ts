import { expect } from 'chai';
import type { NewRow } from './recordWrites';
import { runFindingPlan, RunFindingPlan, RunShape } from './runFindingPlan';
import { FindingPort, RunFindingInput, runFindingWrites } from './runFindings';

/** What a batch's statement recorded of its findings: the records opened, the ids closed. */
export interface FindingWrites {
  opened: readonly NewRow[];
  closed: readonly string[];
}

/** Whether two sets of finding writes are the same records (in any order). */
function sameFindingWrites(a: FindingWrites, b: FindingWrites): boolean {
  const rows = (w: FindingWrites) =>
    w.opened
      .map((r) => JSON.stringify([r.id, r.props]))
      .sort()
      .join('\n');
  const ids = (w: FindingWrites) => [...new Set(w.closed)].sort().join('\n');
  return rows(a) === rows(b) && ids(a) === ids(b);
}

/** A small deterministic generator, so that a failure can be replayed from its seed. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  return {
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
    count: (max: number) => Math.floor(next() * (max + 1)),
  };
}

const TYPES = ['int', 'text', null] as const;
const EXISTING_PARENTS = ['P1', 'P2', 'P3'];
const EXISTING_PORTS = ['E1', 'E2', 'E3', 'E4'];

type Facts = Pick<RunFindingInput, 'kept' | 'named' | 'parentOrphans'>;

/** A run of additions: nodes under existing or new parents, their ports, wires among them and existing ports. */
function shapeOf(r: ReturnType<typeof random>, n: number): RunShape {
  const nodes: RunShape['nodes'] = [];
  const ports = new Map<string, FindingPort>();
  for (let i = 0; i < 1 + r.count(5); i++) {
    const parents = [null, ...EXISTING_PARENTS, ...nodes.map((x) => x.id)];
    nodes.push({
      id: `N${n}-${i}`,
      parentId: r.pick(parents),
      traced: r.chance(0.3),
      name: `n${i}`,
    });
    for (let j = 0; j < r.count(2); j++)
      ports.set(`N${n}-${i}-p${j}`, {
        channel: r.pick(['inputs', 'outputs']),
        name: `p${j}`,
        type: r.pick(TYPES),
      });
  }
  const ends = [null, ...ports.keys(), ...EXISTING_PORTS];
  const wires = Array.from({ length: r.count(4) }, (_, i) => ({
    id: `W${n}-${i}`,
    source: r.pick(ends),
    target: r.pick(ends),
  }));
  return { nodes, ports, wires };
}

function factsOf(r: ReturnType<typeof random>): Facts {
  const named = new Map<string, FindingPort & { unsatisfiedKept: boolean }>();
  for (const id of EXISTING_PORTS)
    if (r.chance(0.85))
      named.set(id, {
        channel: r.pick(['inputs', 'outputs']),
        name: '',
        type: r.pick(TYPES),
        unsatisfiedKept: r.chance(0.5),
      });
  const parentOrphans = new Map(EXISTING_PARENTS.map((p) => [p, r.chance(0.5)]));
  return { kept: r.chance(0.85), named, parentOrphans };
}

/** What lockAndPrefetchAddRun records of `plan` on the facts it read; null when the plan does not hold. */
function recorded(plan: RunFindingPlan, facts: Facts) {
  const holds = plan.ends.every((end) => {
    const port = facts.named.get(end.port);
    return !!port && (end.type === null || port.type === null || port.type === end.type);
  });
  if (!holds) return null;
  if (!facts.kept) return { opened: [], closed: [] };
  return {
    opened: plan.opened
      .filter((o) => o.parent === null || facts.parentOrphans.get(o.parent) === true)
      .map((o) => o.row),
    closed: plan.closed
      .filter((c) => facts.named.get(c.port)?.unsatisfiedKept === true)
      .map((c) => c.id),
  };
}

describe('runFindingPlan (the findings a batch records in its first statement)', () => {
  it('records, whenever its assumptions hold, exactly the findings derived from the facts', () => {
    let held = 0;
    let planless = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const r = random(seed);
      const shape = shapeOf(r, seed);
      const plan = runFindingPlan(shape);
      if (!plan) {
        // only a wire between two existing ports leaves the plan to the facts
        expect(
          shape.wires.some(
            (w) =>
              w.source !== null &&
              w.target !== null &&
              !shape.ports.has(w.source) &&
              !shape.ports.has(w.target),
          ),
          `seed ${seed}`,
        ).to.equal(true);
        planless++;
        continue;
      }
      for (let k = 0; k < 4; k++) {
        const facts = factsOf(r);
        const planned = recorded(plan, facts);
        if (!planned) continue;
        held++;
        const derived = runFindingWrites({ ...shape, ...facts });
        expect(sameFindingWrites(planned, derived), `seed ${seed}, facts ${k}`).to.equal(true);
      }
    }
    // both ways were exercised, not only the way out
    expect(held).to.be.greaterThan(2000);
    expect(planless).to.be.greaterThan(100);
  });

  it('assumes the existing port a wire names fits the type of the run port at its other end', () => {
    const plan = runFindingPlan({
      nodes: [{ id: 'n', parentId: 'P', traced: false, name: 'n' }],
      ports: new Map([['in', { channel: 'inputs', name: 'in', type: 'int' }]]),
      wires: [{ id: 'w', source: 'E', target: 'in' }],
    });
    expect(plan?.ends).to.deep.equal([{ port: 'E', type: 'int' }]);
    // the node's orphan finding hangs on its parent's; the input is wired, so none for it
    expect(plan?.opened.map((o) => [o.parent, o.row.id])).to.deep.equal([['P', 'orphan_node:n']]);
    expect(plan?.closed).to.deep.equal([]);
  });

  it('tells differing finding writes apart', () => {
    const row = { id: 'orphan_node:n', props: { message: 'a' } };
    expect(
      sameFindingWrites({ opened: [row], closed: [] }, { opened: [row], closed: [] }),
    ).to.equal(true);
    expect(
      sameFindingWrites(
        { opened: [row], closed: [] },
        { opened: [{ ...row, props: { message: 'b' } }], closed: [] },
      ),
    ).to.equal(false);
    expect(sameFindingWrites({ opened: [], closed: ['x'] }, { opened: [], closed: [] })).to.equal(
      false,
    );
  });
});
