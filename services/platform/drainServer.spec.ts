/**
 * drainServer, the graceful stop of every process that serves HTTP: a request in flight
 * finishes, and neither an idle kept-alive connection nor one that never sent a request
 * (a client's pool opens such connections ahead of use) holds the drain to its timeout.
 */
import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import { connect, Socket } from 'node:net';
import { expect } from 'chai';
import { drainServer, trackUnusedConnections } from './drainServer';

/** A drain timeout no passing case comes near: reaching it is the failure. */
const DEADLINE_MS = 5_000;

async function serving(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  trackUnusedConnections(server);
  return server;
}

async function connected(server: Server): Promise<Socket> {
  const accepted = once(server, 'connection');
  const socket = connect((server.address() as { port: number }).port, '127.0.0.1');
  socket.on('error', () => undefined);
  await Promise.all([once(socket, 'connect'), accepted]);
  return socket;
}

/** Sends one GET on `socket` and resolves with the answer's text once it is whole. */
async function get(socket: Socket, path = '/'): Promise<string> {
  socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`);
  let text = '';
  while (!text.endsWith('\r\n0\r\n\r\n') && !/\r\n\r\nok$/.test(text)) {
    const [chunk] = (await once(socket, 'data')) as [Buffer];
    text += chunk.toString('latin1');
  }
  return text;
}

describe('drainServer', () => {
  it('closes a connection that never sent a request instead of waiting for its deadline', async () => {
    const server = await serving((_req, res) => res.end('ok'));
    const socket = await connected(server);
    const closed = once(socket, 'close');
    const result = await drainServer(server, DEADLINE_MS);
    expect(result.drained).to.equal(true);
    await closed;
    expect(socket.destroyed).to.equal(true);
  });

  it('closes an idle kept-alive connection, and lets a request in flight finish first', async () => {
    let finish!: () => void;
    const server = await serving((req, res) => {
      if (req.url === '/slow') finish = () => res.end('ok');
      else res.end('ok');
    });
    const idle = await connected(server);
    expect(await get(idle)).to.match(/^HTTP\/1\.1 200/);
    const busy = await connected(server);
    const slow = get(busy, '/slow');
    while (!finish) await new Promise((resolve) => setTimeout(resolve, 10));
    const draining = drainServer(server, DEADLINE_MS);
    await once(idle, 'close');
    expect(busy.destroyed, 'the request in flight is not cut').to.equal(false);
    finish();
    expect(await slow).to.match(/^HTTP\/1\.1 200[\s\S]*ok$/);
    expect((await draining).drained).to.equal(true);
    busy.destroy();
  });

  it('cuts what is still open at the deadline, and says so', async () => {
    const server = await serving(() => undefined); // never answers
    const socket = await connected(server);
    socket.write('GET / HTTP/1.1\r\nHost: test\r\n\r\n');
    await once(server, 'request');
    const closed = once(socket, 'close');
    const result = await drainServer(server, 200);
    expect(result.drained).to.equal(false);
    await closed; // cut by the server
  });
});
