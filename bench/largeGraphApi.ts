/**
 * The HTTP calls of bench/largeGraph.ts: an API key's calls answered whole, or streamed
 * and counted (a million-node graph's full read is larger than one string may hold), and
 * a step's time printed. A call refused by the rate limit (429 rate_limited) waits for
 * its window's end (X-RateLimit-Reset) and is sent again, as a client of the API would:
 * the bench sends more writes a minute than `make run`'s default limits allow, and the
 * time waited is counted apart (`waitedMs`) so that the timings leave it out.
 */

export interface Answer {
  status: number;
  text: string;
}

export type Api = (method: string, path: string, body?: unknown) => Promise<Answer>;

export interface LargeGraphApi {
  call: Api;
  /** Milliseconds the calls so far waited for a rate limit's window to end. */
  waitedMs(): number;
  /** GETs `path`, reading the body as it comes: its status and size, not its text. */
  download(path: string): Promise<{ status: number; bytes: number }>;
}

export function apiOf(url: string, token: string): LargeGraphApi {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  let waited = 0;
  const call: Api = async (method, path, body) => {
    for (;;) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status !== 429) return { status: response.status, text };
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      const ms = Number.isFinite(reset) && reset > 0 ? reset * 1000 - Date.now() + 50 : 1000;
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, Math.max(50, ms)));
      waited += performance.now() - started;
    }
  };
  return {
    call,
    waitedMs: () => waited,
    download: async (path) => {
      const response = await fetch(`${url}${path}`, { headers });
      let bytes = 0;
      if (response.body) for await (const chunk of response.body) bytes += chunk.byteLength;
      return { status: response.status, bytes };
    },
  };
}

export function expectStatus(
  step: string,
  answer: { status: number; text?: string },
  status: number,
): void {
  if (answer.status !== status)
    throw new Error(`${step}: answered ${answer.status}: ${(answer.text ?? '').slice(0, 500)}`);
}

export async function timed<T>(step: string, work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  const ms = performance.now() - started;
  console.log(`${step}: ${(ms / 1000).toFixed(1)} s`);
  return [value, ms];
}
