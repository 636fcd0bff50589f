import { expect } from 'chai';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RawHttpClient } from './rawHttpClient';

/**
 * The benchmarks' client against node's own HTTP server: every answer it times must be
 * framed exactly, or a benchmark would time a cut or merged answer. Answers are written in
 * many small pieces (with pauses), so that sizes, CRLFs and heads arrive split.
 */
describe('RawHttpClient', () => {
  let server: Server;
  let client: RawHttpClient;
  const big = JSON.stringify({
    nodes: Array.from({ length: 5000 }, (_, i) => ({ id: `n${i}`, name: 'é' })),
  });
  const connections = new Set<string>();

  before(async () => {
    server = createServer((req, res) => {
      connections.add(`${req.socket.remotePort}`);
      if (req.url === '/sized') {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ ok: true, method: req.method }));
      } else if (req.url === '/empty') {
        res.statusCode = 204;
        res.end();
      } else if (req.url === '/echo') {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString('utf8')));
        req.on('end', () => res.end(body));
      } else if (req.url === '/streamed') {
        // chunked: the body in uneven pieces, each written on its own turn
        let at = 0;
        const next = () => {
          if (at >= big.length) return res.end();
          const size = 1 + ((at * 7919) % 3001);
          res.write(big.slice(at, at + size));
          at += size;
          setImmediate(next);
        };
        next();
      } else if (req.url === '/close') {
        res.setHeader('Connection', 'close');
        res.statusCode = 409;
        res.end('{"closing":1}');
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new RawHttpClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads a body framed by Content-Length, with its status', async () => {
    const answer = await client.request('GET', '/sized', {}, undefined);
    expect(answer).to.deep.equal({ status: 200, text: '{"ok":true,"method":"GET"}' });
  });

  it('sends a body and reads the echo, multi-byte characters included', async () => {
    const body = JSON.stringify({ name: 'ünïcødé ✓' });
    const answer = await client.request('POST', '/echo', { 'Content-Type': 'text/plain' }, body);
    expect(answer.text).to.equal(body);
  });

  it('reads an answer with no body', async () => {
    expect(await client.request('GET', '/empty', {}, undefined)).to.deep.equal({
      status: 204,
      text: '',
    });
  });

  it('joins a chunked body arriving in thousands of pieces', async () => {
    const answer = await client.request('GET', '/streamed', {}, undefined);
    expect(answer.status).to.equal(200);
    expect(answer.text.length).to.equal(big.length);
    expect(answer.text).to.equal(big);
  });

  it('keeps one connection for requests in sequence, and opens more for concurrent ones', async () => {
    connections.clear();
    for (let i = 0; i < 5; i++) await client.request('GET', '/sized', {}, undefined);
    expect(connections.size).to.equal(1);
    connections.clear();
    const answers = await Promise.all(
      [1, 2, 3].map(() => client.request('GET', '/streamed', {}, undefined)),
    );
    expect(answers.map((a) => a.text === big)).to.deep.equal([true, true, true]);
    expect(connections.size).to.equal(3);
  });

  it('drops a connection the server closes, and the next request opens another', async () => {
    const closing = await client.request('GET', '/close', {}, undefined);
    expect(closing).to.deep.equal({ status: 409, text: '{"closing":1}' });
    const after = await client.request('GET', '/sized', {}, undefined);
    expect(after.status).to.equal(200);
  });
});
