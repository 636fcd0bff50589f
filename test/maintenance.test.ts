/**
 * The maintenance flag (services/platform/maintenanceFlag.ts): while an operator has
 * it set (a backup or a restore of Neo4j), the gateway refuses every request that
 * could write with 503 and Retry-After, before it runs, rather than accepting a write
 * that the restore would then lose; reads are served as before. Lifted, writes are
 * accepted again, within the second a gateway may keep the flag's last value.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { MAINTENANCE_KEY, MAINTENANCE_READ_EVERY_MS } from '../services/platform';
import { currentHarness, newUser, uniqueName } from './support/harness';

describe('maintenance flag', () => {
  const redis = () => currentHarness().service.redis;
  afterEach(async () => {
    await redis().del(MAINTENANCE_KEY);
    await sleep(MAINTENANCE_READ_EVERY_MS + 100);
  });

  it('refuses requests that could write (503, Retry-After) and serves reads while set', async () => {
    const alice = await newUser();
    const before = await alice.api.post('/v1/projects', { name: uniqueName() });
    expect(before.status).to.equal(201);

    await redis().set(MAINTENANCE_KEY, 'restore', 'EX', 60);
    await sleep(MAINTENANCE_READ_EVERY_MS + 100);
    const refusedName = uniqueName();
    const refused = await alice.api.post('/v1/projects', { name: refusedName });
    expect(refused.status).to.equal(503);
    expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
    expect(refused.body.detail.code).to.equal('service_unavailable');
    expect(refused.body.detail.message).to.match(/maintenance \(restore\)/);
    const renamed = await alice.api.patch(`/v1/projects/${before.body.project.id}`, {
      name: 'renamed',
    });
    expect(renamed.status).to.equal(503);

    const listed = await alice.api.get('/v1/projects');
    expect(listed.status).to.equal(200);
    const names = (listed.body.projects as { name: string }[]).map((p) => p.name);
    expect(names).to.deep.equal([before.body.project.name]);

    await redis().del(MAINTENANCE_KEY);
    await sleep(MAINTENANCE_READ_EVERY_MS + 100);
    const after = await alice.api.post('/v1/projects', { name: refusedName });
    expect(after.status).to.equal(201);
  });

  it('still answers an unknown credential 401 first', async () => {
    await redis().set(MAINTENANCE_KEY, 'backup', 'EX', 60);
    await sleep(MAINTENANCE_READ_EVERY_MS + 100);
    const res = await currentHarness()
      .anon.withToken('gds_notakeynotakeynotakeynotakey00')
      .post('/v1/projects', { name: uniqueName() });
    expect(res.status).to.equal(401);
  });
});
