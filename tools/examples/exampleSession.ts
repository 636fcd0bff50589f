/**
 * The HTTP side of the example recorder: each call of the scripted session goes through
 * `send`, which checks the status the script expects (a session that went wrong must not
 * become documentation) and, when the call is marked as the example of an operation,
 * keeps its request body and its answer as that operation's example.
 *
 * What is kept is what the service answered, with two kinds of values replaced, because
 * they must never reach the document: secrets (API keys, the webhook's secret), shown as
 * a visibly fake `gds_example...` value, and the address of the recorder's own local
 * webhook receiver, which changes every run and means nothing to a reader, shown as a
 * stable example URL (`Substitution`).
 */

/** Who makes a call: a user of the session and their API key. */
export interface Actor {
  name: string;
  token: string;
}

/** A call marked as the example `name` of `operationId` (the summary as the docs show it). */
export interface Mark {
  operationId: string;
  name: string;
  summary: string;
  /** Whether the request body is an example too (default: when the call sent one). */
  request?: boolean;
}

/** One recorded example: the call, its request body and its answer. */
export interface Capture {
  operationId: string;
  name: string;
  summary: string;
  method: string;
  path: string;
  request: unknown;
  status: number;
  mediaType: string;
  response: unknown;
}

/** A real value and what the document shows instead. */
export interface Substitution {
  real: string;
  shown: string;
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
  mediaType: string;
}

export class ExampleSession {
  readonly captures: Capture[] = [];
  private readonly substitutions: Substitution[] = [];

  constructor(private readonly baseUrl: string) {}

  /** Replaces `real` with `shown` in every example kept from now on. */
  substitute(real: string, shown: string): void {
    this.substitutions.push({ real, shown });
  }

  /** Sends one request as `actor`; throws unless the answer has the `expected` status. */
  async send<T = unknown>(
    actor: Actor,
    method: string,
    path: string,
    body: unknown,
    expected: number,
    mark?: Mark,
  ): Promise<Answer<T>> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${actor.token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const answer: Answer<T> = {
      status: response.status,
      body: (text.length > 0 ? JSON.parse(text) : undefined) as T,
      mediaType: (response.headers.get('content-type') ?? '').split(';')[0].trim(),
    };
    if (answer.status !== expected)
      throw new Error(
        `${method} ${path} as ${actor.name}: ${answer.status}, not ${expected}: ${text}`,
      );
    if (mark) this.keep(mark, method, path, body, answer);
    return answer;
  }

  /** Keeps an answer that did not come from `send` (an event read from a stream). */
  keep(mark: Mark, method: string, path: string, request: unknown, answer: Answer): void {
    this.captures.push({
      operationId: mark.operationId,
      name: mark.name,
      summary: mark.summary,
      method,
      path,
      request: (mark.request ?? true) ? this.shown(request) : undefined,
      status: answer.status,
      mediaType: answer.mediaType,
      response: this.shown(answer.body),
    });
  }

  /** `value` with every substitution applied (through its JSON text, so at any depth). */
  private shown(value: unknown): unknown {
    if (value === undefined) return undefined;
    let text = JSON.stringify(value);
    for (const { real, shown } of this.substitutions) text = text.split(real).join(shown);
    return JSON.parse(text);
  }
}
