/**
 * remoteOperations relaying a streamed answer (an event stream) from the owner's process:
 * the pieces pass as they come; when the gateway stops, the relay ends cleanly, so its
 * drain does not wait on a stream that would last as long as the owner keeps it, and the
 * owner sees its caller leave. The owner here is a plain HTTP server answering as
 * internalApi does for a streamed result.
 */
import { once } from 'node:events';
import { createServer, Server, ServerResponse } from 'node:http';
import { expect } from 'chai';
import pino from 'pino';
import type { BodyWriter } from '../../shared/http/operation';
import { remoteOperations } from './remoteOperations';
import { STREAMED_RESULT_HEADER } from './internalApi';

const SECRET = 'a-secret-of-at-least-thirty-two-characters';

/** An owner whose streamed answer sends `retry:` then never ends by itself. */
async function streamingOwner(): Promise<{
  server: Server;
  url: string;
  answer: Promise<ServerResponse>;
}> {
  let answered!: (res: ServerResponse) => void;
  const answer = new Promise<ServerResponse>((resolve) => (answered = resolve));
  const server = createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      [STREAMED_RESULT_HEADER]: JSON.stringify({
        status: 200,
        headers: { 'Content-Type': 'text/event-stream; charset=utf-8' },
      }),
    });
    res.write('retry: 2000\n\n');
    answered(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, answer };
}

function relayed(url: string, stopping: AbortSignal) {
  const table = remoteOperations({
    operations: [
      {
        operationId: 'streamProjectEvents',
        owner: 'graph-read',
        method: 'GET',
        path: '/v1/projects/{project_id}/events/stream',
        idempotencyKey: false,
      },
    ],
    serviceUrls: {
      projects: url,
      branches: url,
      'graph-read': url,
      'graph-write': url,
      decisions: url,
    },
    secret: SECRET,
    stopping,
  });
  return table.streamProjectEvents({
    operationId: 'streamProjectEvents',
    params: { project_id: 'p' },
    query: {},
    body: undefined,
    headers: {},
    principal: { userId: 'u', keyId: 'k', scopes: new Set(), projectAllowlist: null },
    requestId: 'r',
    log: pino({ level: 'silent' }),
  });
}

describe('remoteOperations: a relayed stream', () => {
  it("passes the owner's pieces on, and ends cleanly when the gateway stops", async () => {
    const owner = await streamingOwner();
    const stopping = new AbortController();
    try {
      const result = await relayed(owner.url, stopping.signal);
      expect(result.status).to.equal(200);
      expect(result.headers).to.deep.equal({ 'Content-Type': 'text/event-stream; charset=utf-8' });
      const pieces: string[] = [];
      let first!: () => void;
      const gotFirst = new Promise<void>((resolve) => (first = resolve));
      const out: BodyWriter = {
        write: async (piece) => {
          pieces.push(typeof piece === 'string' ? piece : Buffer.from(piece).toString());
          first();
        },
      };
      const relaying = result.stream!(out);
      await gotFirst;
      expect(pieces.join('')).to.equal('retry: 2000\n\n');
      const ownerRes = await owner.answer;
      const ownerSawLeave = once(ownerRes, 'close');

      stopping.abort();
      await relaying; // resolves: the answer is ended, not cut
      await ownerSawLeave; // the owner's stream ends on its caller leaving
      expect(ownerRes.writableFinished).to.equal(false);
    } finally {
      owner.server.closeAllConnections();
      owner.server.close();
    }
  });

  it('relays nothing more once the gateway is already stopping', async () => {
    const owner = await streamingOwner();
    const stopping = new AbortController();
    try {
      const result = await relayed(owner.url, stopping.signal);
      stopping.abort();
      const pieces: unknown[] = [];
      await result.stream!({ write: async (piece) => void pieces.push(piece) });
      expect(pieces).to.deep.equal([]);
    } finally {
      owner.server.closeAllConnections();
      owner.server.close();
    }
  });
});
