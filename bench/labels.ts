/** Unique names for bench projects and branches. */
import { randomUUID } from 'node:crypto';

export function uniqueLabel(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}
