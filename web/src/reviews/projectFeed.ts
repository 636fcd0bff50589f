/**
 * Follows a project's event feed (streamProjectEvents, Server-Sent Events). The API
 * takes the key only as the bearer header and EventSource cannot send one (and the key
 * never goes into a URL), so the stream is read with fetch() and parsed here: `id:`,
 * `event:`, `data:` lines, a blank line ending each event, `:` comments (heartbeats)
 * skipped, `retry:` kept as the reconnect delay. When the stream ends (the server
 * closes it after a while) or fails, it is opened again with Last-Event-ID, so no
 * event is missed; a 401/403/404 stops it.
 */
import type { Schemas } from '../api';
import { readKey } from '../keyStore';

export type FeedEvent = Schemas['FeedEvent'];

/** Reconnect delay when the server gave none, and the most a failure waits. */
const RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

export interface SseMessage {
  id: string | null;
  event: string;
  data: string;
}

/** An incremental parser of text/event-stream: feed it chunks, get whole messages. */
export class SseParser {
  private buffer = '';
  private id: string | null = null;
  private event = '';
  private data: string[] = [];
  retry: number | null = null;

  push(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const out: SseMessage[] = [];
    let nl: number;
    while ((nl = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, nl);
      const width = this.buffer.startsWith('\r\n', nl) ? 2 : 1;
      this.buffer = this.buffer.slice(nl + width);
      if (line === '') {
        if (this.data.length > 0)
          out.push({ id: this.id, event: this.event || 'message', data: this.data.join('\n') });
        this.event = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') this.id = value;
      else if (field === 'event') this.event = value;
      else if (field === 'data') this.data.push(value);
      else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
    }
    return out;
  }

  /** The id of the last event seen: what Last-Event-ID resumes from. */
  get lastId(): string | null {
    return this.id;
  }
}

export interface FeedHandlers {
  onEvent: (event: FeedEvent) => void;
  /** Connected (true) or waiting to reconnect (false). */
  onState?: (live: boolean) => void;
  /** A refusal that stops the feed (401, 403, 404). */
  onStop?: (status: number) => void;
}

/** Follows the feed from now on until the returned function is called. */
export function followProjectFeed(projectId: string, handlers: FeedHandlers): () => void {
  const abort = new AbortController();
  let lastId: string | null = null;
  let failures = 0;
  const run = async () => {
    while (!abort.signal.aborted) {
      const parser = new SseParser();
      let delay = RETRY_MS;
      try {
        const headers: Record<string, string> = { Accept: 'text/event-stream' };
        const key = readKey();
        if (key) headers.Authorization = `Bearer ${key}`;
        if (lastId) headers['Last-Event-ID'] = lastId;
        const res = await fetch(`/v1/projects/${encodeURIComponent(projectId)}/events/stream`, {
          headers,
          signal: abort.signal,
          cache: 'no-store',
        });
        if ([401, 403, 404].includes(res.status)) {
          handlers.onStop?.(res.status);
          return;
        }
        if (!res.ok || !res.body) throw new Error(`feed answered ${res.status}`);
        handlers.onState?.(true);
        failures = 0;
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const m of parser.push(value)) {
            if (m.id) lastId = m.id;
            try {
              handlers.onEvent(JSON.parse(m.data) as FeedEvent);
            } catch {
              // a message that is not a FeedEvent is skipped: the feed's kinds are an open set
            }
          }
        }
        delay = parser.retry ?? RETRY_MS;
      } catch {
        // the stream failed or could not open: wait longer each time, then resume
        if (abort.signal.aborted) return;
        failures += 1;
        delay = Math.min(MAX_RETRY_MS, RETRY_MS * 2 ** failures);
      }
      handlers.onState?.(false);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };
  void run();
  return () => abort.abort();
}
