/** RFC 3339 UTC with milliseconds (interpretations.md, "Wire basics"). */
export function nowTimestamp(): string {
  return new Date().toISOString();
}
