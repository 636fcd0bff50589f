/**
 * Cuts a caller's value short before it is quoted in a message, a finding or an
 * error body: whatever the caller sent, what the service echoes stays small.
 */
export const CLIP_LENGTH = 64;

export function clip(text: string, max = CLIP_LENGTH): string {
  if (text.length <= max) return text;
  // do not split a surrogate pair
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]) ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

/** JSON.stringify of a clipped string: for quoting a name or type in a message. */
export function quote(text: string | null | undefined, max = CLIP_LENGTH): string {
  return JSON.stringify(clip(text ?? '', max));
}
