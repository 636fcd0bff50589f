/** Decisions ledger reads. */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { decisionOut, minute, seedDecisions } from './support/decisionFixtures';
import { grant, newKeyFor, newUser, TestUser, uniqueName } from './support/harness';

const SETTLED = ['accepted', 'rejected', 'superseded', 'retired'];

async function projectOf(user: TestUser): Promise<string> {
  const res = await user.api.post('/v1/projects', { name: uniqueName() });
  expect(res.status).to.equal(201);
  return res.body.project.id;
}

const list = (user: TestUser, query: string) => user.api.get(`/v1/decisions?${query}`);

describe('decisions ledger', () => {
  describe('GET /v1/decisions', () => {
    it('serves settled decisions newest first with every DecisionOut field', async () => {
      const alice = await newUser();
      const projectId = await projectOf(alice);
      const full = decisionOut(projectId, { captured_at: minute(30) });
      const bare = {
        id: randomUUID(),
        project_id: projectId,
        state: 'retired',
        anchor_ref: { type: 'project', id: null },
        captured_at: minute(40),
      };
      const [tieLow, tieHigh] = [randomUUID(), randomUUID()].sort();
      await seedDecisions([
        full,
        bare,
        decisionOut(projectId, { id: tieLow, state: 'rejected', captured_at: minute(10) }),
        decisionOut(projectId, { id: tieHigh, state: 'superseded', captured_at: minute(10) }),
        decisionOut(projectId, { state: 'captured', captured_at: minute(50) }),
        decisionOut(projectId, { state: 'interviewing', captured_at: minute(60) }),
      ]);
      const res = await list(alice, `project_id=${projectId}`);
      expect(res.status).to.equal(200);
      expect(res.body.decisions.map((d: any) => d.id)).to.deep.equal([
        bare.id,
        full.id,
        tieHigh,
        tieLow,
      ]);
      expect(res.body.decisions[1]).to.deep.equal(full);
      expect(res.body.decisions[0]).to.deep.equal({
        ...bare,
        parent_decision_id: null,
        superseded_by: null,
        resulting_node_ids: null,
        retirement_reason: null,
        applied: null,
        annotations: null,
        capture_text: null,
        check: null,
      });
      expect(res.body.filters).to.deep.equal({ state: SETTLED });
      expect(res.body).to.include({ has_more: false, limit: 50, offset: 0, project_id: projectId });
      expect(res.body.version).to.equal('1.0.0');
    });

    it('an empty ledger is a normal answer', async () => {
      const alice = await newUser();
      const projectId = await projectOf(alice);
      const res = await list(alice, `project_id=${projectId}`);
      expect(res.status).to.equal(200);
      expect(res.body.decisions).to.deep.equal([]);
      expect(res.body.has_more).to.equal(false);
    });

    it('state narrows to the named settled states and filters.state echoes them', async () => {
      const alice = await newUser();
      const projectId = await projectOf(alice);
      const records = SETTLED.map((state, i) =>
        decisionOut(projectId, { state, captured_at: minute(i) }),
      );
      await seedDecisions(records);
      const two = await list(
        alice,
        `project_id=${projectId}&state=retired&state=accepted&state=retired`,
      );
      expect(two.status).to.equal(200);
      expect(two.body.decisions.map((d: any) => d.state)).to.deep.equal(['retired', 'accepted']);
      expect(two.body.filters).to.deep.equal({ state: ['retired', 'accepted'] });
      const one = await list(alice, `project_id=${projectId}&state=rejected`);
      expect(one.status).to.equal(200);
      expect(one.body.decisions.map((d: any) => d.id)).to.deep.equal([records[1].id]);
      expect(one.body.filters).to.deep.equal({ state: ['rejected'] });
    });

    for (const [label, query] of [
      ['captured', 'state=captured'],
      ['interviewing', 'state=interviewing'],
      ['an unknown state', 'state=draft'],
      ['an empty state', 'state='],
      ['a settled and an unsettled state', 'state=accepted&state=interviewing'],
    ]) {
      it(`a state filter naming ${label} answers 422 state_not_readable (object form)`, async () => {
        const alice = await newUser();
        const projectId = await projectOf(alice);
        const res = await list(alice, `project_id=${projectId}&${query}`);
        expect(res.status).to.equal(422);
        expect(res.body.detail.code).to.equal('state_not_readable');
        expect(res.body.detail.message).to.be.a('string');
      });
    }

    it('pages with limit and offset; has_more until a short page; unsettled ones never count', async () => {
      const alice = await newUser();
      const projectId = await projectOf(alice);
      const settled = Array.from({ length: 7 }, (_, i) =>
        decisionOut(projectId, { state: SETTLED[i % 4], captured_at: minute(100 - i) }),
      );
      const hidden = [1, 2, 3].map((i) =>
        decisionOut(projectId, { state: 'captured', captured_at: minute(i) }),
      );
      await seedDecisions([...settled, ...hidden]);
      const seen: string[] = [];
      const pages: [number, boolean][] = [];
      for (let offset = 0; offset < 9; offset += 3) {
        const res = await list(alice, `project_id=${projectId}&limit=3&offset=${offset}`);
        expect(res.status).to.equal(200);
        expect(res.body).to.include({ limit: 3, offset });
        pages.push([res.body.decisions.length, res.body.has_more]);
        seen.push(...res.body.decisions.map((d: any) => d.id));
      }
      expect(pages).to.deep.equal([
        [3, true],
        [3, true],
        [1, false],
      ]);
      expect(seen).to.deep.equal(settled.map((d) => d.id));
      const exact = await list(alice, `project_id=${projectId}&limit=7`);
      expect(exact.body.decisions).to.have.length(7);
      expect(exact.body.has_more).to.equal(false);
      const beyond = await list(alice, `project_id=${projectId}&offset=50`);
      expect(beyond.body.decisions).to.deep.equal([]);
      expect(beyond.body.has_more).to.equal(false);
      const max = await list(alice, `project_id=${projectId}&limit=200`);
      expect(max.status).to.equal(200);
      expect(max.body.limit).to.equal(200);
      // at most 16 state items; 16 (repeats allowed) is accepted
      const sixteen = Array.from({ length: 16 }, () => 'state=accepted').join('&');
      const states = await list(alice, `project_id=${projectId}&${sixteen}`);
      expect(states.status).to.equal(200);
      expect(states.body.filters.state).to.deep.equal(['accepted']);
    });

    for (const [label, query] of [
      ['limit 0', 'limit=0'],
      ['limit 201', 'limit=201'],
      ['a negative offset', 'offset=-1'],
      ['a non-integer limit', 'limit=ten'],
      ['17 state items', Array.from({ length: 17 }, () => 'state=accepted').join('&')],
    ]) {
      it(`refuses ${label} with the 422 array form`, async () => {
        const alice = await newUser();
        const projectId = await projectOf(alice);
        const res = await list(alice, `project_id=${projectId}&${query}`);
        expect(res.status).to.equal(422);
        expect(res.body.detail).to.be.an('array');
        expect(res.body.detail.length).to.be.greaterThan(0);
      });
    }

    it('project_id is required and must be a uuid (422 array form)', async () => {
      const alice = await newUser();
      expect((await alice.api.get('/v1/decisions')).status).to.equal(422);
      const bad = await list(alice, 'project_id=not-a-uuid');
      expect(bad.status).to.equal(422);
      expect(bad.body.detail[0].loc).to.deep.equal(['query', 'project_id']);
    });

    it('needs decisions:read (403 insufficient_scope) once the project is visible', async () => {
      const alice = await newUser();
      const projectId = await projectOf(alice);
      const noScope = await newKeyFor(alice, { scopes: ['graph:write'] });
      const res = await list(noScope, `project_id=${projectId}`);
      expect(res.status).to.equal(403);
      expect(res.body.detail.code).to.equal('insufficient_scope');
      const stranger = await newUser({ scopes: ['graph:write'] });
      expect((await list(stranger, `project_id=${projectId}`)).status).to.equal(404);
    });

    it('answers the same 404 for a missing, invisible, allowlisted-out or deleted project', async () => {
      const alice = await newUser();
      const projectId = await projectOf(alice);
      const other = await projectOf(alice);
      await seedDecisions([decisionOut(projectId)]);
      const missing = await list(alice, `project_id=${randomUUID()}`);
      expect(missing.status).to.equal(404);
      const stranger = await newUser();
      const invisible = await list(stranger, `project_id=${projectId}`);
      const narrow = await newKeyFor(alice, { scopes: ['decisions:read'], projects: [other] });
      const allowlisted = await list(narrow, `project_id=${projectId}`);
      expect((await alice.api.delete(`/v1/projects/${projectId}`)).status).to.equal(200);
      const deleted = await list(alice, `project_id=${projectId}`);
      for (const res of [invisible, allowlisted, deleted]) {
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal(missing.body);
      }
    });

    it('any member with the scope may read (viewer)', async () => {
      const alice = await newUser();
      const projectId = await projectOf(alice);
      await seedDecisions([decisionOut(projectId)]);
      const viewer = await newUser({ scopes: ['decisions:read'] });
      await grant(projectId, viewer, 'viewer');
      const res = await list(viewer, `project_id=${projectId}`);
      expect(res.status).to.equal(200);
      expect(res.body.decisions).to.have.length(1);
    });
  });

  describe('GET /v1/decisions/{decision_id}', () => {
    it('answers one settled decision with its project_id', async () => {
      const alice = await newUser();
      const projectId = await projectOf(alice);
      const record = decisionOut(projectId, { state: 'superseded', superseded_by: randomUUID() });
      await seedDecisions([record]);
      const res = await alice.api.get(`/v1/decisions/${record.id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ decision: record, project_id: projectId, version: '1.0.0' });
    });

    it('missing, invisible, captured, interviewing and deleted-project decisions give one 404', async () => {
      const alice = await newUser();
      const projectId = await projectOf(alice);
      const doomed = await projectOf(alice);
      const settled = decisionOut(projectId);
      const captured = decisionOut(projectId, { state: 'captured' });
      const interviewing = decisionOut(projectId, { state: 'interviewing' });
      const gone = decisionOut(doomed);
      await seedDecisions([settled, captured, interviewing, gone]);
      expect((await alice.api.delete(`/v1/projects/${doomed}`)).status).to.equal(200);
      const missing = await alice.api.get(`/v1/decisions/${randomUUID()}`);
      expect(missing.status).to.equal(404);
      expect(missing.body.detail.code).to.equal('not_found');
      const stranger = await newUser();
      const answers = [
        await stranger.api.get(`/v1/decisions/${settled.id}`),
        await alice.api.get(`/v1/decisions/${captured.id}`),
        await alice.api.get(`/v1/decisions/${interviewing.id}`),
        await alice.api.get(`/v1/decisions/${gone.id}`),
      ];
      for (const res of answers) expect(res.body).to.deep.equal(missing.body);
      expect(answers.map((r) => r.status)).to.deep.equal([404, 404, 404, 404]);
    });

    it('needs decisions:read: 403 for a visible settled decision, the same 404 otherwise', async () => {
      const alice = await newUser();
      const projectId = await projectOf(alice);
      const settled = decisionOut(projectId);
      const captured = decisionOut(projectId, { state: 'captured' });
      await seedDecisions([settled, captured]);
      const noScope = await newKeyFor(alice, { scopes: ['graph:write', 'project:delete'] });
      const forbidden = await noScope.api.get(`/v1/decisions/${settled.id}`);
      expect(forbidden.status).to.equal(403);
      expect(forbidden.body.detail.code).to.equal('insufficient_scope');
      const missing = await noScope.api.get(`/v1/decisions/${randomUUID()}`);
      const unsettled = await noScope.api.get(`/v1/decisions/${captured.id}`);
      expect(missing.status).to.equal(404);
      expect(unsettled.body).to.deep.equal(missing.body);
    });

    it('a decision_id that is not a uuid is a 422 (array form)', async () => {
      const alice = await newUser();
      const res = await alice.api.get('/v1/decisions/not-a-uuid');
      expect(res.status).to.equal(422);
      expect(res.body.detail[0].loc).to.deep.equal(['path', 'decision_id']);
    });
  });
});
