/**
 * Reads events of streamProjectEvents (Server-Sent Events) as an EventSource hands them
 * over: each message's `id`, `event` and `data` lines, `data` kept as the one line of JSON
 * it is on the wire (the schema FeedStreamEvent). The `retry:` hint and `: heartbeat`
 * comments carry no data and are skipped. Stops after `count` events, or throws after
 * `timeoutMs`.
 */
import type { Actor } from './exampleSession';

export interface StreamedEvent {
  id: string;
  event: string;
  data: string;
}

export interface StreamRead {
  status: number;
  mediaType: string;
  events: StreamedEvent[];
}

/** The complete messages of `text` that carry an event (a trailing partial one is left out). */
export function parseEvents(text: string): StreamedEvent[] {
  const blocks = text.split('\n\n').slice(0, -1);
  const events: StreamedEvent[] = [];
  for (const block of blocks) {
    const fields = new Map<string, string>();
    for (const line of block.split('\n')) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      fields.set(line.slice(0, colon), line.slice(colon + 1).replace(/^ /, ''));
    }
    const [id, event, data] = [fields.get('id'), fields.get('event'), fields.get('data')];
    if (id !== undefined && event !== undefined && data !== undefined)
      events.push({ id, event, data });
  }
  return events;
}

export async function readEvents(
  baseUrl: string,
  actor: Actor,
  path: string,
  headers: Record<string, string>,
  count: number,
  timeoutMs = 20_000,
): Promise<StreamRead> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      headers: { Authorization: `Bearer ${actor.token}`, ...headers },
      signal: controller.signal,
    });
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0].trim();
    if (response.status !== 200 || response.body === null)
      throw new Error(`GET ${path}: ${response.status}: ${await response.text()}`);
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of response.body) {
      text += decoder.decode(chunk, { stream: true });
      const events = parseEvents(text);
      if (events.length >= count)
        return { status: response.status, mediaType, events: events.slice(0, count) };
    }
    throw new Error(`GET ${path}: the stream ended before ${count} events`);
  } catch (error) {
    if (controller.signal.aborted)
      throw new Error(`GET ${path}: fewer than ${count} events within ${timeoutMs} ms`, {
        cause: error,
      });
    throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}
