/**
 * The HTTP calls of bench/largeGraph.ts: an API key's calls answered whole, or streamed
 * and counted (a million-node graph's full read is larger than one string may hold), and
 * a step's time printed.
 */

export interface Answer {
  status: number;
  text: string;
}

export type Api = (method: string, path: string, body?: unknown) => Promise<Answer>;

export interface LargeGraphApi {
  call: Api;
  /** GETs `path`, reading the body as it comes: its status and size, not its text. */
  download(path: string): Promise<{ status: number; bytes: number }>;
}

export function apiOf(url: string, token: string): LargeGraphApi {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return {
    call: async (method, path, body) => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, text: await response.text() };
    },
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
