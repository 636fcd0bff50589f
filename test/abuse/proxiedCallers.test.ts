/**
 * Callers behind proxies: the gateway tells them apart by the X-Forwarded-For entries
 * the proxies it is told of (TRUSTED_PROXIES) vouch for, so one client's flood of unknown
 * keys spends that client's budget and nobody else's; and however many unknown keys
 * an address has sent, a valid key from it is served, never refused with 429. The
 * unknown-key budget protects Neo4j from random-key floods: past it, lookups are
 * gathered into a few statements instead of costing one each.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { loadConfigWith } from '../../shared/config/config';
import { createLogger } from '../../shared/logging/logger';
import { RunningService, startService } from '../../services/gateway/server';
import { newUser, TEST_ENV } from '../support/harness';

const unknownKey = () => `gds_${randomBytes(32).toString('base64url')}`;
/** The ingress in front (a documentation address, as the test's proxy). */
const INGRESS = '192.0.2.10';
const clientAddress = () => `203.0.113.${1 + Math.floor(Math.random() * 250)}`;

function lookups(service: RunningService, query: string): Promise<number> {
  return service.metrics.render().then((text) => {
    const line = text
      .split('\n')
      .find(
        (l) =>
          l.startsWith('gds_neo4j_query_duration_seconds_count{') && l.includes(`query="${query}"`),
      );
    return line ? Number(line.split(' ').pop()) : 0;
  });
}

describe('abuse: callers behind proxies', function () {
  this.timeout(60_000);
  let service: RunningService;

  /** GET /v1/projects with `token`, from `client` as the ingress forwards it. */
  const list = (token: string, client: string) =>
    fetch(`${service.url}/v1/projects`, {
      headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': `${client}, ${INGRESS}` },
    });

  before(async () => {
    const config = loadConfigWith({
      ...TEST_ENV,
      RATE_LIMIT_ANON_PER_MIN: '3',
      TRUSTED_PROXIES: '192.0.2.0/24',
    });
    service = await startService(config, createLogger({ level: 'silent' }));
  });
  after(async () => service?.close());

  it('keeps the budgets of clients behind a trusted ingress apart (TRUSTED_PROXIES)', async () => {
    const flooder = clientAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await list(unknownKey(), flooder)).status);
    expect(statuses.slice(0, 3)).to.deep.equal([401, 401, 401]);
    expect(statuses.slice(3)).to.deep.equal([429, 429, 429]);
    // another client behind the same ingress has its own budget
    let other = clientAddress();
    while (other === flooder) other = clientAddress();
    expect((await list(unknownKey(), other)).status).to.equal(401);
  });

  it('serves a valid key from an address that has spent its unknown-key budget', async () => {
    const address = clientAddress();
    for (let i = 0; i < 10; i += 1)
      expect((await list(unknownKey(), address)).status).to.be.oneOf([401, 429]);
    // a key this process has never seen (so not cached) is still looked up and served
    const user = await newUser();
    const res = await list(user.token, address);
    expect(res.status, await res.clone().text()).to.equal(200);
    // and so it is from a shared address flooded at the same time
    const flood = Array.from({ length: 20 }, () => list(unknownKey(), address));
    const second = await newUser();
    const [served] = await Promise.all([list(second.token, address), ...flood]);
    expect(served.status).to.equal(200);
  });

  it('past the budget, gathers the lookups of unknown keys instead of one statement each', async () => {
    const address = clientAddress();
    for (let i = 0; i < 3; i += 1) expect((await list(unknownKey(), address)).status).to.equal(401);
    const single = await lookups(service, 'findActiveKeyByHash');
    const gathered = await lookups(service, 'findActiveKeysByHashes');
    const flood = await Promise.all(Array.from({ length: 40 }, () => list(unknownKey(), address)));
    for (const res of flood) expect(res.status).to.equal(429);
    expect(await lookups(service, 'findActiveKeyByHash')).to.equal(single);
    const statements = (await lookups(service, 'findActiveKeysByHashes')) - gathered;
    expect(statements, `${statements} statements for 40 unknown keys`).to.be.within(1, 8);
  });
});
