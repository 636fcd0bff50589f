/**
 * The resources' API calls, against a stand-in for the API that records what is asked
 * (the calls themselves are the HTTP routes', covered by the MCP integration tests).
 */
import { expect } from 'chai';
import type { ApiAnswer, ApiCaller } from './apiCaller';
import { listResources, readResource, RESOURCE_LISTING_CONCURRENCY } from './graphResources';

function answer(json: unknown): ApiAnswer {
  const text = JSON.stringify(json);
  return { status: 200, text, json, replayed: false };
}

/** An API of `projects` projects with one branch each; answers after a turn of the event loop. */
function fakeApi(projects: number) {
  const asked: string[] = [];
  let inFlight = 0;
  let most = 0;
  const api = {
    async getJson(path: string): Promise<ApiAnswer> {
      asked.push(path);
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight -= 1;
      if (path.startsWith('/v1/projects?'))
        return answer({
          projects: Array.from({ length: projects }, (_, i) => ({ id: `p${i}`, name: `n${i}` })),
        });
      const branches = /^\/v1\/projects\/([^/]+)\/branches$/.exec(path);
      if (branches) return answer({ branches: [{ id: `b-${branches[1]}`, name: 'work' }] });
      if (/^\/v1\/graph\/[^/]+\/top-level$/.test(path))
        return answer({ branch: { id: 'main-1', version: 3 }, nodes: [] });
      if (path === '/v1/branches/main-1/file') return answer({ schema_version: 6, nodes: [] });
      const events = /^\/v1\/projects\/[^/]+\/events\?after=(\d+)&limit=200$/.exec(path);
      if (events) {
        // two pages: seqs 1-2 after 0, then 3 after 2
        const after = Number(events[1]);
        const seqs = after === 0 ? [1, 2] : after === 2 ? [3] : [];
        return answer({
          events: seqs.map((seq) => ({ seq })),
          has_more: after === 0,
          next_after: seqs.length > 0 ? seqs[seqs.length - 1] : after,
        });
      }
      return { status: 404, text: '{}', json: {}, replayed: false };
    },
  };
  return { api: api as unknown as ApiCaller, asked, most: () => most };
}

describe('MCP graph resources', () => {
  it("lists every project's resources with a bounded number of calls at once", async () => {
    // all at once, 40 projects would be 40 calls in flight for one key, past the
    // per-key limit of requests in progress (429)
    const { api, most } = fakeApi(40);
    const resources = await listResources(api);
    expect(resources).to.have.length(40 * 4);
    expect(resources.map((r) => r.uri)).to.include('gds://branches/b-p39/file');
    expect(most()).to.be.at.most(RESOURCE_LISTING_CONCURRENCY);
    expect(most()).to.be.greaterThan(1);
  });

  it("reads main's file after a cheap lookup of main's id (its top level, not its whole graph)", async () => {
    const { api, asked } = fakeApi(1);
    const read = await readResource(api, 'gds://projects/p0/main/file');
    expect(JSON.parse(read!.text)).to.deep.equal({ schema_version: 6, nodes: [] });
    expect(asked).to.deep.equal(['/v1/graph/p0/top-level', '/v1/branches/main-1/file']);
  });

  it('reads a project feed page by page from `after` (listProjectEvents)', async () => {
    const { api, asked } = fakeApi(1);
    const read = await readResource(api, 'gds://projects/p0/events');
    expect(JSON.parse(read!.text)).to.deep.equal({
      project_id: 'p0',
      events: [{ seq: 1 }, { seq: 2 }, { seq: 3 }],
      next_after: 3,
      complete: true,
    });
    expect(asked).to.deep.equal([
      '/v1/projects/p0/events?after=0&limit=200',
      '/v1/projects/p0/events?after=2&limit=200',
    ]);
    const later = await readResource(api, 'gds://projects/p0/events?after=2');
    expect(JSON.parse(later!.text).events).to.deep.equal([{ seq: 3 }]);
  });
});
