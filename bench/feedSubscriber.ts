/**
 * One subscriber of a project's feed for the feed bench (feedBench.ts):
 * streamProjectEvents read through fetch, its body parsed as it arrives (the way
 * test/feed.test.ts reads a stream, block by block), the arrival time of each event
 * noted under the key `keyOf` gives it. A stream that ends (after FEED_STREAM_MAX_SECONDS)
 * is opened again with Last-Event-ID, as a browser's EventSource does.
 */

/** The key of an event (its FeedEvent JSON) for the bench, or null for one it ignores. */
export type EventKey = (event: Record<string, unknown>) => string | null;

export class FeedSubscriber {
  /** When each event arrived (performance.now()), by key: the first arrival. */
  readonly arrivals = new Map<string, number>();
  /** Streams opened again after one ended. */
  reconnects = 0;
  /** What ended the stream other than close(). */
  failure: Error | null = null;
  private lastId: string | null = null;
  private readonly controller = new AbortController();
  private following: Promise<void> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly projectId: string,
    private readonly keyOf: EventKey,
  ) {}

  /** Opens the stream; resolves once its answer began (it then follows the feed). */
  async open(): Promise<void> {
    const first = await this.connect();
    this.following = this.follow(first).catch((error: unknown) => {
      if (!this.controller.signal.aborted)
        this.failure = error instanceof Error ? error : new Error(String(error));
    });
  }

  /** Stops following and waits until the stream is closed. */
  async close(): Promise<void> {
    this.controller.abort();
    await this.following;
  }

  private async connect(): Promise<Response> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}` };
    if (this.lastId !== null) headers['Last-Event-ID'] = this.lastId;
    const res = await fetch(`${this.url}/v1/projects/${this.projectId}/events/stream`, {
      headers,
      signal: this.controller.signal,
    });
    if (res.status !== 200 || !res.body)
      throw new Error(`streamProjectEvents -> ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return res;
  }

  private async follow(first: Response): Promise<void> {
    let res = first;
    for (;;) {
      await this.read(res);
      if (this.controller.signal.aborted) return;
      this.reconnects += 1;
      res = await this.connect();
    }
  }

  /** Reads one stream to its end, each event block as soon as its blank line arrived. */
  private async read(res: Response): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      const at = performance.now();
      buffered += decoder.decode(chunk, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        this.take(buffered.slice(0, end), at);
        buffered = buffered.slice(end + 2);
      }
    }
  }

  /** One block: `id`, `event` and `data` fields; comments (`: heartbeat`) and `retry` skipped. */
  private take(block: string, at: number): void {
    const fields: Record<string, string> = {};
    for (const line of block.split('\n')) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      fields[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, '');
    }
    if (fields.id === undefined || fields.data === undefined) return;
    this.lastId = fields.id;
    const key = this.keyOf(JSON.parse(fields.data) as Record<string, unknown>);
    if (key !== null && !this.arrivals.has(key)) this.arrivals.set(key, at);
  }
}
