import { expect } from 'chai';
import express, { Request, Response } from 'express';
import { hangUpSignal } from './hangUpSignal';
import { injectRequest, RequestAbandonedError, RequestListener } from './injectRequest';

/** What the app saw of each request and of its response's end. */
interface Seen {
  method?: string;
  url?: string;
  query?: unknown;
  headers?: Record<string, unknown>;
  ip?: string;
  body?: unknown;
  events: string[];
  finishedAtClose?: boolean;
}

function appSeeing(seen: Seen, answer: (req: Request, res: Response) => void): RequestListener {
  const app = express();
  app.set('trust proxy', ['loopback']);
  app.use((req, res, next) => {
    res.on('finish', () => seen.events.push('finish'));
    res.on('close', () => {
      seen.events.push('close');
      seen.finishedAtClose = res.writableFinished;
    });
    next();
  });
  app.use(express.json());
  app.use((req, res) => {
    Object.assign(seen, {
      method: req.method,
      url: req.url,
      query: req.query,
      headers: req.headers,
      ip: req.ip,
      body: req.body as unknown,
    });
    answer(req, res);
  });
  return app;
}

const closeSeen = () => new Promise((resolve) => setImmediate(resolve));

describe('injectRequest: a request answered by an app in process', () => {
  it('gives the app the method, path, query and headers, and returns its status, headers and body', async () => {
    const seen: Seen = { events: [] };
    const app = appSeeing(seen, (_req, res) => {
      res.status(202).set('Idempotent-Replayed', 'true').json({ ok: 'é' });
    });
    const answer = await injectRequest(app, {
      method: 'get',
      path: '/v1/things?limit=5&tag=a&tag=b',
      headers: { Authorization: 'Bearer k', 'X-Request-Id': 'r-1' },
      remoteAddress: '127.0.0.1',
    });
    expect(answer.status).to.equal(202);
    expect(answer.headers['idempotent-replayed']).to.equal('true');
    expect(JSON.parse(answer.body)).to.deep.equal({ ok: 'é' });
    expect(seen.method).to.equal('GET');
    expect(seen.url).to.equal('/v1/things?limit=5&tag=a&tag=b');
    expect(seen.query).to.deep.equal({ limit: '5', tag: ['a', 'b'] });
    expect(seen.headers).to.include({ authorization: 'Bearer k', 'x-request-id': 'r-1' });
  });

  it('hands a JSON body to the body parser as one read from the network would', async () => {
    const seen: Seen = { events: [] };
    const app = appSeeing(seen, (req, res) => {
      res.json({ length: req.header('content-length') });
    });
    const body = JSON.stringify({ name: 'Ünïcode ✓', items: [1, 2, 3] });
    const answer = await injectRequest(app, {
      method: 'POST',
      path: '/v1/things',
      // a Content-Length given by the caller is replaced by the body's own
      headers: { 'Content-Type': 'application/json', 'Content-Length': '3' },
      body,
      remoteAddress: '127.0.0.1',
    });
    expect(seen.body).to.deep.equal({ name: 'Ünïcode ✓', items: [1, 2, 3] });
    expect(JSON.parse(answer.body)).to.deep.equal({
      length: String(Buffer.byteLength(body)),
    });
  });

  it("derives the client address from the remote address and X-Forwarded-For by the app's trust proxy", async () => {
    const seen: Seen = { events: [] };
    const app = appSeeing(seen, (_req, res) => res.end());
    const forwarded = { 'X-Forwarded-For': '198.51.100.7' };
    await injectRequest(app, {
      method: 'GET',
      path: '/',
      headers: forwarded,
      remoteAddress: '127.0.0.1',
    });
    expect(seen.ip, 'a trusted proxy passes the address on').to.equal('198.51.100.7');
    await injectRequest(app, {
      method: 'GET',
      path: '/',
      headers: forwarded,
      remoteAddress: '203.0.113.9',
    });
    expect(seen.ip, 'an untrusted sender is the client').to.equal('203.0.113.9');
  });

  it('reads a body written in pieces whole and in order, a character split across pieces included', async () => {
    const seen: Seen = { events: [] };
    const check = Buffer.from('✓', 'utf8');
    const app = appSeeing(seen, (_req, res) => {
      res.status(200).type('application/json');
      res.write('[1,"');
      res.write(check.subarray(0, 1));
      res.write(check.subarray(1), () => undefined);
      res.write(Buffer.from('"', 'latin1'));
      res.end(',2]', 'utf8');
    });
    const answer = await injectRequest(app, {
      method: 'GET',
      path: '/',
      headers: {},
      remoteAddress: '127.0.0.1',
    });
    expect(JSON.parse(answer.body)).to.deep.equal([1, '✓', 2]);
  });

  it("closes the response once sent ('finish', then one 'close') before handing the answer back, as over a network", async () => {
    const seen: Seen = { events: [] };
    const app = appSeeing(seen, (_req, res) => res.status(204).end());
    const answer = await injectRequest(app, {
      method: 'DELETE',
      path: '/x',
      headers: {},
      remoteAddress: '127.0.0.1',
    });
    expect(answer.status).to.equal(204);
    // a slot the response held (requests in flight) is free before the caller goes on
    expect(seen.events).to.deep.equal(['finish', 'close']);
    expect(seen.finishedAtClose).to.equal(true);
  });

  it('abandons the request when its signal aborts: the response closes unsent and the work is cancelled', async () => {
    const seen: Seen = { events: [] };
    let cancelled: AbortSignal | undefined;
    const app = appSeeing(seen, (_req, res) => {
      cancelled = hangUpSignal(res); // never answered: waits for its caller
    });
    const controller = new AbortController();
    const answered = injectRequest(app, {
      method: 'GET',
      path: '/slow',
      headers: {},
      remoteAddress: '127.0.0.1',
      signal: controller.signal,
    });
    await closeSeen();
    expect(cancelled?.aborted).to.equal(false);
    controller.abort();
    const outcome = await answered.then(
      () => 'answered',
      (error: unknown) => error,
    );
    expect(outcome).to.be.instanceOf(RequestAbandonedError);
    await closeSeen();
    expect(seen.events).to.deep.equal(['close']);
    expect(seen.finishedAtClose).to.equal(false);
    expect(cancelled?.aborted).to.equal(true);
  });

  it('does not start a request whose signal has already aborted', async () => {
    const seen: Seen = { events: [] };
    const app = appSeeing(seen, (_req, res) => res.end());
    const outcome = await injectRequest(app, {
      method: 'GET',
      path: '/',
      headers: {},
      remoteAddress: '127.0.0.1',
      signal: AbortSignal.abort(),
    }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    expect(outcome).to.be.instanceOf(RequestAbandonedError);
    expect(seen.method).to.equal(undefined);
  });
});
