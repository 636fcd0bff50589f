/**
 * The name search (searchNodes, searchMainNodes) in the versioned store: it is served
 * from indexes on the lower-cased name, so what it finds must still be exactly what the
 * view holds. Case is ignored both ways; names starting with the text come first, each
 * group ordered by lower-cased name, then name, then id; a node deep inside boundaries
 * never opened is found with its ancestors; a branch's rename shadows main's name and
 * its deletion hides main's node (main keeps both); a pinned version finds the names of
 * that version; nodes of other projects and other branches are never found; `truncated`
 * says when more match than `limit`, whichever part of the answer is cut.
 */
import { expect } from 'chai';
import { uuid, workspace } from './support/graphBuilders';
import { newUser, TestUser } from './support/harness';
import { mergeProject } from './support/mergeWorkspace';
import { build } from './support/scopedReadSupport';

type Match = { id: string; name: string; path: string[] };

/** A text no other test's names contain, so store-wide candidates are only ours. */
const token = () => `t${uuid().slice(0, 8)}`;

async function found(
  user: TestUser,
  path: string,
): Promise<{ nodes: Match[]; truncated: boolean }> {
  const res = await user.api.get(path);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

const names = (answer: { nodes: Match[] }) => answer.nodes.map((m) => m.name);
const rename = (id: string, name: string) => ({
  type: 'update_node_data',
  node_id: id,
  after: { name },
});

describe('name search over the versioned store (searchNodes, searchMainNodes)', function () {
  this.timeout(60_000);

  it('ignores case in text and names, starting names first, each group by lower-cased name, then name', async () => {
    const w = await workspace(await newUser());
    const t = token();
    await build(w, [
      ['a', 'left', null, 'boundary'],
      ['b', 'right', null, 'boundary'],
      ['c', `${t}-Pump`, 'a'],
      ['d', `${t}-pump`, 'b'],
      ['e', `${t.toUpperCase()}-valve`, 'a'],
      ['f', `beta-${t.toUpperCase()}`, null],
      ['g', `Gamma ${t}`, null],
      ['h', 'unrelated', null],
    ]);
    const mixed = t.slice(0, 3).toUpperCase() + t.slice(3);
    const answer = await found(w.user, `/v1/branches/${w.branchId}/nodes/search?q=${mixed}`);
    expect(names(answer)).to.deep.equal([
      `${t}-Pump`,
      `${t}-pump`,
      `${t.toUpperCase()}-valve`,
      `beta-${t.toUpperCase()}`,
      `Gamma ${t}`,
    ]);
    expect(answer.truncated).to.equal(false);
  });

  it('finds a node deep inside boundaries never opened, with all its ancestors', async () => {
    const w = await workspace(await newUser());
    const t = token();
    const n = await build(w, [
      ['l0', 'outer', null, 'boundary'],
      ['l1', 'middle', 'l0', 'boundary'],
      ['l2', 'inner', 'l1', 'boundary'],
      ['l3', 'innermost', 'l2', 'boundary'],
      ['leaf', `deep-${t}`, 'l3'],
    ]);
    const answer = await found(w.user, `/v1/branches/${w.branchId}/nodes/search?q=${t}`);
    expect(answer.nodes).to.have.length(1);
    expect(answer.nodes[0]).to.deep.include({
      id: n.leaf.id,
      path: [n.l0.id, n.l1.id, n.l2.id, n.l3.id],
    });
  });

  it("finds a branch's renamed node by its new name only, while main and the fork point keep the old one", async () => {
    const p = await mergeProject(await newUser());
    const t = token();
    const { node } = await seedOne(p, `old-${t}`);
    const branch = await p.fork();
    await branch.apply([rename(node, `new-${t}`)]);
    const onBranch = (q: string, at = '') =>
      found(p.user, `/v1/branches/${branch.id}/nodes/search?q=${q}${at}`);
    const onMain = (q: string) => found(p.user, `/v1/graph/${p.projectId}/nodes/search?q=${q}`);
    expect(names(await onBranch(`old-${t}`))).to.deep.equal([]);
    expect(names(await onBranch(`new-${t}`))).to.deep.equal([`new-${t}`]);
    // both names contain the token: only the branch's own record answers
    expect(names(await onBranch(t))).to.deep.equal([`new-${t}`]);
    expect(names(await onMain(t))).to.deep.equal([`old-${t}`]);
    expect(names(await onMain(`new-${t}`))).to.deep.equal([]);
    expect(names(await onBranch(t, '&version=0'))).to.deep.equal([`old-${t}`]);
  });

  it('finds the names of a pinned version: renamed, then deleted on the branch', async () => {
    const w = await workspace(await newUser());
    const t = token();
    const n = await build(w, [['x', `first-${t}`, null]]);
    await w.apply([rename(n.x.id, `second-${t}`)]);
    await w.apply([{ type: 'delete_node', node_id: n.x.id }]);
    const at = async (version: string) =>
      names(await found(w.user, `/v1/branches/${w.branchId}/nodes/search?q=${t}${version}`));
    expect(await at('&version=1')).to.deep.equal([`first-${t}`]);
    expect(await at('&version=2')).to.deep.equal([`second-${t}`]);
    expect(await at('&version=3')).to.deep.equal([]);
    expect(await at('')).to.deep.equal([]);
  });

  it("does not find main's node on a branch that deleted it; main still does", async () => {
    const p = await mergeProject(await newUser());
    const t = token();
    const { node } = await seedOne(p, `doomed-${t}`);
    const branch = await p.fork();
    await branch.apply([{ type: 'delete_node', node_id: node }]);
    const q = `?q=${t}`;
    expect(names(await found(p.user, `/v1/branches/${branch.id}/nodes/search${q}`))).to.deep.equal(
      [],
    );
    expect(names(await found(p.user, `/v1/graph/${p.projectId}/nodes/search${q}`))).to.deep.equal([
      `doomed-${t}`,
    ]);
  });

  it("never finds another project's or another branch's nodes, by prefix or by substring", async () => {
    const user = await newUser();
    const t = token();
    const mine = await workspace(user);
    const theirs = await workspace(user);
    await build(mine, [
      ['a', `${t}-mine`, null],
      ['b', `x-${t}-mine`, null],
    ]);
    await build(theirs, [
      ['a', `${t}-theirs`, null],
      ['b', `x-${t}-theirs`, null],
    ]);
    const search = (branchId: string) =>
      found(user, `/v1/branches/${branchId}/nodes/search?q=${t}`);
    expect(names(await search(mine.branchId))).to.deep.equal([`${t}-mine`, `x-${t}-mine`]);
    expect(names(await search(theirs.branchId))).to.deep.equal([`${t}-theirs`, `x-${t}-theirs`]);
    // main and a second branch of the same project do not see the first branch's nodes
    const second = await user.api.post(`/v1/projects/${mine.projectId}/branches`, { name: 'two' });
    expect(second.status).to.equal(201);
    expect(names(await search(second.body.branch.id))).to.deep.equal([]);
    expect(names(await search(mine.mainId))).to.deep.equal([]);
  });

  it("orders a branch's names among main's and says truncated when more match, in either part", async () => {
    const p = await mergeProject(await newUser());
    const t = token();
    await p.seed(await deltasOf([`${t}-b`, `${t}-d`, `z-${t}-f`]));
    const branch = await p.fork();
    await branch.apply(await deltasOf([`${t}-a`, `${t}-c`, `z-${t}-e`]));
    const at = (limit: number) =>
      found(p.user, `/v1/branches/${branch.id}/nodes/search?q=${t}&limit=${limit}`);
    const all = await at(50);
    expect(names(all)).to.deep.equal([
      `${t}-a`,
      `${t}-b`,
      `${t}-c`,
      `${t}-d`,
      `z-${t}-e`,
      `z-${t}-f`,
    ]);
    expect(all.truncated).to.equal(false);
    const cases: [number, boolean][] = [
      [1, true],
      [4, true], // every starting name shown, more contain the text
      [5, true],
      [6, false],
    ];
    for (const [limit, truncated] of cases) {
      const answer = await at(limit);
      expect(names(answer), `limit ${limit}`).to.deep.equal(names(all).slice(0, limit));
      expect(answer.truncated, `limit ${limit}`).to.equal(truncated);
    }
  });
});

/** Add-node deltas for top-level nodes named `list`. */
async function deltasOf(list: string[]): Promise<unknown[]> {
  const deltas: unknown[] = [];
  await build(
    { apply: async (d) => void deltas.push(...d) },
    list.map((name, i) => [`n${i}`, name, null]),
  );
  return deltas;
}

/** Seeds main with one top-level node named `name` (forked, applied, merged). */
async function seedOne(
  p: Awaited<ReturnType<typeof mergeProject>>,
  name: string,
): Promise<{ node: string }> {
  const [delta] = (await deltasOf([name])) as { node: { id: string } }[];
  await p.seed([delta]);
  return { node: delta.node.id };
}
