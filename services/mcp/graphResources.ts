/**
 * MCP resources: the graph file of any visible branch (main included, by its
 * branch id), main's graph file by project, a project's decisions and its event feed. Each read
 * is the HTTP call an HTTP client would make with the same key
 * (exportBranchFile, getMainTopLevel, listDecisions), so visibility and rate limits
 * are those of the API; a failed read is an MCP error carrying the HTTP error body.
 */
import type { ApiAnswer, ApiCaller } from './apiCaller';

export const BRANCH_FILE_TEMPLATE = 'gds://branches/{branch_id}/file';
export const MAIN_FILE_TEMPLATE = 'gds://projects/{project_id}/main/file';
export const DECISIONS_TEMPLATE = 'gds://projects/{project_id}/decisions';
export const EVENTS_TEMPLATE = 'gds://projects/{project_id}/events{?after}';

/** Events a feed resource holds at most (pages of 200, oldest first, after `after`). */
const MAX_EVENTS = 1000;

/** Decisions a decisions resource holds at most (pages of 200, newest first). */
const MAX_DECISIONS = 1000;
const JSON_TYPE = 'application/json';

export interface ResourceEntry {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
}

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: BRANCH_FILE_TEMPLATE,
    name: 'branch-graph-file',
    title: "A branch's graph file",
    description:
      'The graph file (schema_version 6) of a branch: a working branch of yours or a main branch, by branch id (exportBranchFile).',
    mimeType: JSON_TYPE,
  },
  {
    uriTemplate: MAIN_FILE_TEMPLATE,
    name: 'main-graph-file',
    title: "A project's main graph file",
    description:
      "The graph file of the project's main branch (getMainTopLevel for main's id, then exportBranchFile).",
    mimeType: JSON_TYPE,
  },
  {
    uriTemplate: DECISIONS_TEMPLATE,
    name: 'project-decisions',
    title: "A project's decisions",
    description: `The project's settled decisions, newest first, at most ${MAX_DECISIONS} (listDecisions).`,
    mimeType: JSON_TYPE,
  },
  {
    uriTemplate: EVENTS_TEMPLATE,
    name: 'project-events',
    title: "A project's event feed",
    description: `What happened in the project, oldest first, after seq \`after\` (default 0), at most ${MAX_EVENTS} events; read on from \`next_after\` (listProjectEvents).`,
    mimeType: JSON_TYPE,
  },
];

/** A failed API call behind a resource: the MCP error carries the HTTP status and body. */
export class ResourceReadError extends Error {
  constructor(readonly answer: ApiAnswer) {
    super(answer.text || `HTTP ${answer.status}`);
  }
}

function ok(answer: ApiAnswer): unknown {
  if (answer.status >= 400) throw new ResourceReadError(answer);
  return answer.json;
}

const enc = encodeURIComponent;

/**
 * listBranches calls a listing makes at once. The key may have only so many requests
 * in progress (MAX_IN_FLIGHT_PER_KEY, 16 by default, more answer 429): one call per
 * project all at once failed the listing for a user with more projects than that,
 * and a few at a time leave the rest of the key's budget to its other calls.
 */
export const RESOURCE_LISTING_CONCURRENCY = 4;

/** `work` over `items`, at most `limit` at a time; the results in the items' order. */
async function mapAtMost<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Every resource the key can see: each project's main file and decisions, each working branch's file. */
export async function listResources(api: ApiCaller): Promise<ResourceEntry[]> {
  const { projects } = ok(await api.getJson('/v1/projects?limit=200')) as {
    projects: { id: string; name: string }[];
  };
  const perProject = await mapAtMost(projects, RESOURCE_LISTING_CONCURRENCY, async (project) => {
    const { branches } = ok(await api.getJson(`/v1/projects/${enc(project.id)}/branches`)) as {
      branches: { id: string; name: string }[];
    };
    return [
      {
        uri: MAIN_FILE_TEMPLATE.replace('{project_id}', project.id),
        name: `${project.name}: main graph file`,
        mimeType: JSON_TYPE,
      },
      {
        uri: DECISIONS_TEMPLATE.replace('{project_id}', project.id),
        name: `${project.name}: decisions`,
        mimeType: JSON_TYPE,
      },
      {
        uri: `gds://projects/${project.id}/events`,
        name: `${project.name}: events`,
        mimeType: JSON_TYPE,
      },
      ...branches.map((branch) => ({
        uri: BRANCH_FILE_TEMPLATE.replace('{branch_id}', branch.id),
        name: `${project.name}: branch ${branch.name} graph file`,
        mimeType: JSON_TYPE,
      })),
    ];
  });
  return perProject.flat();
}

async function readDecisions(api: ApiCaller, projectId: string): Promise<unknown> {
  const decisions: unknown[] = [];
  let more = true;
  while (more && decisions.length < MAX_DECISIONS) {
    const page = ok(
      await api.getJson(
        `/v1/decisions?project_id=${enc(projectId)}&limit=200&offset=${decisions.length}`,
      ),
    ) as { decisions: unknown[]; has_more: boolean };
    decisions.push(...page.decisions);
    more = page.has_more && page.decisions.length > 0;
  }
  return { project_id: projectId, decisions, complete: !more };
}

async function readEvents(api: ApiCaller, projectId: string, after: number): Promise<unknown> {
  const events: unknown[] = [];
  let cursor = after;
  let more = true;
  while (more && events.length < MAX_EVENTS) {
    const page = ok(
      await api.getJson(`/v1/projects/${enc(projectId)}/events?after=${cursor}&limit=200`),
    ) as { events: unknown[]; has_more: boolean; next_after: number };
    events.push(...page.events);
    cursor = page.next_after;
    more = page.has_more && page.events.length > 0;
  }
  return { project_id: projectId, events, next_after: cursor, complete: !more };
}

/** Reads a resource by URI; undefined when the URI matches no template. */
export async function readResource(
  api: ApiCaller,
  uri: string,
): Promise<{ uri: string; mimeType: string; text: string } | undefined> {
  const branch = /^gds:\/\/branches\/([^/]+)\/file$/.exec(uri);
  const main = /^gds:\/\/projects\/([^/]+)\/main\/file$/.exec(uri);
  const decisions = /^gds:\/\/projects\/([^/]+)\/decisions$/.exec(uri);
  const feed = /^gds:\/\/projects\/([^/?]+)\/events(?:\?after=(\d{1,15}))?$/.exec(uri);
  let text: string;
  if (branch) {
    const answer = await api.getJson(`/v1/branches/${enc(decodeURIComponent(branch[1]))}/file`);
    ok(answer);
    text = answer.text;
  } else if (main) {
    // main's id from its top level (getMainTopLevel), not from the whole graph
    // (getMainGraph): the file is read next anyway, and the lookup should cost little
    const top = ok(
      await api.getJson(`/v1/graph/${enc(decodeURIComponent(main[1]))}/top-level`),
    ) as { branch: { id: string } };
    const answer = await api.getJson(`/v1/branches/${enc(top.branch.id)}/file`);
    ok(answer);
    text = answer.text;
  } else if (decisions) {
    text = JSON.stringify(await readDecisions(api, decodeURIComponent(decisions[1])));
  } else if (feed) {
    const after = Number(feed[2] ?? 0);
    text = JSON.stringify(await readEvents(api, decodeURIComponent(feed[1]), after));
  } else return undefined;
  return { uri, mimeType: JSON_TYPE, text };
}
