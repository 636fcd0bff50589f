/**
 * An imported project of bench/largeGraph.ts as the comparison reads and writes it: where
 * its reads aim (found through the API, so a project imported before is measured the same
 * way), and the writes that give it a fork to write on and main a history to read pinned.
 */
import { randomUUID } from 'node:crypto';
import { Api, expectStatus } from './largeGraphApi';
import { LargeGraphShape, lastBehaviorName } from './largeGraphFile';

interface PresentedNode {
  id: string;
  kind: string;
  parent_id: string | null;
}

/** An imported project and the targets of its reads. */
export interface LargeProject {
  size: number;
  projectId: string;
  mainId: string;
  /** A second-level boundary: about 1,000 behaviors in a chain of wires. */
  mid: string;
  /** The behaviors under `mid`. */
  behaviors: string[];
  /** A name only one node holds (the file's last behavior). */
  selectiveName: string;
  /** Main's version now; advanced by mergeBranch. */
  mainVersion: number;
}

const parse = <T>(text: string) => JSON.parse(text) as T;

/** The targets of `projectId`'s reads: a second-level boundary, and its children. */
export async function largeProject(
  api: Api,
  projectId: string,
  mainId: string,
  shape: LargeGraphShape,
): Promise<LargeProject> {
  const top = await api('GET', `/v1/branches/${mainId}/top-level`);
  expectStatus('top level', top, 200);
  const tops = parse<{ nodes: PresentedNode[]; branch: { version: number } }>(top.text);
  // at 1k nodes only the first top-level boundary (in the file's order) holds one
  let mid: PresentedNode | undefined;
  for (const node of tops.nodes) {
    mid = (await childrenOf(api, mainId, node.id)).find((child) => child.kind === 'boundary');
    if (mid) break;
  }
  if (!mid) throw new Error(`no second-level boundary in project ${projectId}`);
  const behaviors = (await childrenOf(api, mainId, mid.id)).map((node) => node.id);
  return {
    size: shape.nodes,
    projectId,
    mainId,
    mid: mid.id,
    behaviors,
    selectiveName: lastBehaviorName(shape),
    mainVersion: tops.branch.version,
  };
}

async function childrenOf(api: Api, branchId: string, id: string): Promise<PresentedNode[]> {
  const answer = await api('GET', `/v1/branches/${branchId}/subtree/${id}?depth=1`);
  expectStatus('subtree', answer, 200);
  return parse<{ nodes: PresentedNode[] }>(answer.text).nodes.filter((node) => node.id !== id);
}

export function pickOf<T>(items: T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

/** A new working branch of the project: its id. */
export async function fork(api: Api, project: LargeProject): Promise<string> {
  const answer = await api('POST', `/v1/projects/${project.projectId}/branches`, {
    name: `b-${randomUUID().slice(0, 12)}`,
  });
  expectStatus('fork', answer, 201);
  return parse<{ branch: { id: string } }>(answer.text).branch.id;
}

/** Ten new behaviors (no ports) under `mid`. */
export function tenAdded(project: LargeProject): unknown[] {
  return Array.from({ length: 10 }, () => ({
    type: 'add_node',
    node: {
      id: randomUUID(),
      kind: 'behavior',
      parent_id: project.mid,
      data: { name: `added-${randomUUID().slice(0, 8)}` },
    },
  }));
}

/** Ten behaviors under `mid` given a new description. */
export function tenChanged(project: LargeProject, text: string): unknown[] {
  return Array.from({ length: 10 }, () => ({
    type: 'update_node_data',
    node_id: pickOf(project.behaviors),
    after: { description: text },
  }));
}

/** Applies `deltas` to `branchId` at `version`: the branch's new version. */
export async function applyBatch(
  api: Api,
  branchId: string,
  version: number,
  deltas: unknown[],
): Promise<number> {
  const answer = await api('POST', `/v1/branches/${branchId}/deltas`, {
    deltas,
    expected_version: version,
  });
  expectStatus(`batch at version ${version}`, answer, 200);
  return parse<{ branch: { version: number } }>(answer.text).branch.version;
}

/**
 * A fork with `batches` batches of `deltasOf()` merged into main; `timed` is given the
 * merge alone. Main's version is kept on `project`.
 */
export async function mergeBranch(
  api: Api,
  project: LargeProject,
  batches: number,
  deltasOf: () => unknown[],
  timed: (merge: () => Promise<void>) => Promise<void> = (merge) => merge(),
): Promise<void> {
  const branchId = await fork(api, project);
  let version = 0;
  for (let b = 0; b < batches; b += 1)
    version = await applyBatch(api, branchId, version, deltasOf());
  await timed(async () => {
    const merged = await api('POST', `/v1/branches/${branchId}/merge`, {
      expected_version: version,
    });
    expectStatus('merge', merged, 200);
    project.mainVersion = parse<{ main_branch: { version: number } }>(
      merged.text,
    ).main_branch.version;
  });
}
