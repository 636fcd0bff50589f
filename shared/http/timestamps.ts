/** RFC 3339 UTC with milliseconds. */
export function nowTimestamp(): string {
  return new Date().toISOString();
}
