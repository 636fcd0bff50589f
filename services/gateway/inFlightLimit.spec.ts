import { expect } from 'chai';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Response } from 'express';
import { RateLimitedError } from '../../shared/errors/domainErrors';
import { InFlightLimit } from './inFlightLimit';

const WINDOW = { limit: 10, remaining: 9, reset: 0 };

/** A server whose handler is `handle`, and a keep-alive agent to call it. */
async function serve(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const server = http.createServer(handle);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    agent,
    get: () =>
      new Promise<number>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          })
          .on('error', reject);
      }),
    close: () => {
      agent.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

const asResponse = (res: http.ServerResponse) => res as unknown as Response;

describe('InFlightLimit', () => {
  it('refuses one request more than max for a key, and frees the slot when the answer ends', async () => {
    const limit = new InFlightLimit(1);
    const pending: http.ServerResponse[] = [];
    const s = await serve((_req, res) => {
      limit.enter('k', asResponse(res), WINDOW);
      pending.push(res);
    });
    try {
      const first = s.get();
      while (pending.length === 0) await new Promise((r) => setTimeout(r, 5));
      expect(limit.inFlight('k')).to.equal(1);
      expect(() => limit.enter('k', asResponse(pending[0]), WINDOW)).to.throw(RateLimitedError);
      expect(limit.inFlight('k')).to.equal(1);
      pending[0].end('done');
      expect(await first).to.equal(200);
      await new Promise((r) => setImmediate(r));
      expect(limit.inFlight('k')).to.equal(0);
    } finally {
      await s.close();
    }
  });

  it('frees every slot of answers sent one after the other on a kept-alive connection', async () => {
    const limit = new InFlightLimit(1);
    const s = await serve((_req, res) => {
      limit.enter('k', asResponse(res), WINDOW);
      setImmediate(() => res.end('ok'));
    });
    try {
      for (let i = 0; i < 20; i++) expect(await s.get()).to.equal(200);
      await new Promise((r) => setImmediate(r));
      expect(limit.inFlight('k')).to.equal(0);
    } finally {
      await s.close();
    }
  });

  it('takes no slot for good when the caller hung up before the request was admitted', async () => {
    // admission waits on Redis: the caller may be gone, and its response closed, by the time
    // the slot is taken; a slot that waits for a 'close' already emitted is never given back
    const limit = new InFlightLimit(4);
    let admitted: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (admitted = resolve));
    const s = await serve((_req, res) => {
      res.once('close', () => {
        setImmediate(() => {
          limit.enter('k', asResponse(res), WINDOW);
          admitted();
        });
      });
    });
    try {
      const req = http.get({ host: '127.0.0.1', port: s.port, path: '/', agent: s.agent });
      req.on('error', () => undefined);
      await new Promise((r) => setTimeout(r, 50));
      req.destroy();
      await done;
      await new Promise((r) => setTimeout(r, 20));
      expect(limit.inFlight('k')).to.equal(0);
    } finally {
      await s.close();
    }
  });

  it('keeps the slot of a caller who hung up until the work it started has settled', async () => {
    // the caller's hang-up closes the response at once; the work answering it (a Neo4j
    // transaction) still runs until its cancellation lands, and holds what the slot bounds
    const limit = new InFlightLimit(1);
    let finish: () => void = () => undefined;
    const work = new Promise<void>((resolve) => (finish = resolve));
    let closed: () => void = () => undefined;
    const responseClosed = new Promise<void>((resolve) => (closed = resolve));
    const s = await serve((_req, res) => {
      limit.enter('k', asResponse(res), WINDOW);
      limit.holdUntilSettled(asResponse(res), work);
      res.once('close', () => setImmediate(closed));
    });
    try {
      const req = http.get({ host: '127.0.0.1', port: s.port, path: '/', agent: s.agent });
      req.on('error', () => undefined);
      await new Promise((r) => setTimeout(r, 50));
      req.destroy();
      await responseClosed;
      expect(limit.inFlight('k')).to.equal(1);
      finish();
      await new Promise((r) => setImmediate(r));
      expect(limit.inFlight('k')).to.equal(0);
    } finally {
      await s.close();
    }
  });

  it('gives the slot back once when the work fails after the answer was sent', async () => {
    const limit = new InFlightLimit(1);
    const s = await serve((_req, res) => {
      limit.enter('k', asResponse(res), WINDOW);
      const work = new Promise<void>((_resolve, reject) =>
        setImmediate(() => reject(new Error('late'))),
      );
      work.catch(() => undefined);
      limit.holdUntilSettled(asResponse(res), work);
      res.end('ok');
    });
    try {
      expect(await s.get()).to.equal(200);
      await new Promise((r) => setTimeout(r, 20));
      expect(limit.inFlight('k')).to.equal(0);
      expect(await s.get()).to.equal(200);
      await new Promise((r) => setTimeout(r, 20));
      expect(limit.inFlight('k')).to.equal(0);
    } finally {
      await s.close();
    }
  });
});
