/**
 * The HTTP listener every process opens (listen): an idle kept-alive connection stays
 * open as long as HTTP_KEEP_ALIVE_TIMEOUT_MS says, not Node's 5 s. A load balancer in
 * front reuses its idle connections to the service for up to its own idle timeout
 * (60 s is common); a service that closes them sooner makes it answer 502.
 */
import { once } from 'node:events';
import { connect, Socket } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import { loadConfig } from '../../shared/config/config';
import { listen } from './processResources';

const DEVELOPMENT = { GDS_ENV: 'development', HOST: '127.0.0.1', PORT: '0' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One GET on the kept-alive `socket`; resolves with the answer's status once it is whole. */
async function get(socket: Socket): Promise<number> {
  socket.write('GET / HTTP/1.1\r\nHost: test\r\n\r\n');
  let text = '';
  while (!/\r\n\r\nok$/.test(text)) {
    const [chunk] = (await once(socket, 'data')) as [Buffer];
    text += chunk.toString('latin1');
  }
  return Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]);
}

describe('listen', () => {
  it('keeps idle connections open past a 60 s load-balancer idle timeout by default', async () => {
    const config = loadConfig(DEVELOPMENT);
    const { server } = await listen(express(), config);
    try {
      expect(server.keepAliveTimeout).to.equal(config.http.keepAliveTimeoutMs);
      expect(server.keepAliveTimeout).to.be.above(60_000);
      // the headers of a request on a kept-alive connection may arrive up to its end
      expect(server.headersTimeout).to.equal(config.http.headersTimeoutMs);
      expect(server.headersTimeout).to.be.above(server.keepAliveTimeout);
      expect(
        server.requestTimeout === 0 || server.requestTimeout >= server.headersTimeout,
      ).to.equal(true);
    } finally {
      server.close();
    }
  });

  it('holds an idle kept-alive connection for the configured time, then closes it', async function () {
    this.timeout(10_000);
    const config = loadConfig({
      ...DEVELOPMENT,
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '1500',
      HTTP_HEADERS_TIMEOUT_MS: '2000',
    });
    const app = express();
    app.get('/', (_req, res) => {
      res.send('ok');
    });
    const { server, url } = await listen(app, config);
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    await once(socket, 'connect');
    let closedAt = 0;
    socket.on('close', () => (closedAt = Date.now()));
    try {
      expect(await get(socket)).to.equal(200);
      await sleep(800); // idle, within the configured 1.5 s: the connection serves again
      expect(await get(socket)).to.equal(200);
      const answeredAt = Date.now();
      // idle past it (and the second of grace node's server adds): closed by the server
      await sleep(3200);
      expect(closedAt, 'closed by the server').to.be.above(0);
      expect(closedAt - answeredAt).to.be.within(1400, 3000);
    } finally {
      socket.destroy();
      server.close();
    }
  });
});
