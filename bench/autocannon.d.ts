/** The part of autocannon's API the read-scaling benchmark uses (it ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string;
    connections: number;
    duration: number;
    amount?: number;
    timeout?: number;
    headers?: Record<string, string>;
  }
  interface Result {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
    duration: number;
  }
  interface Instance {
    on(
      event: 'response',
      listener: (client: unknown, status: number, bytes: number, ms: number) => void,
    ): void;
  }
  function autocannon(
    options: Options,
    done: (error: Error | null, result: Result) => void,
  ): Instance;
  export = autocannon;
}
