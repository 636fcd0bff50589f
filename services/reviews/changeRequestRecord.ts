/** A change request, a review and a comment as stored, and the rules of their texts. */
import { RequestValidationError } from '../../shared/errors/domainErrors';
import { characterCount } from '../../shared/text/characters';
import type { Verdict } from '../feed';

export type ChangeRequestState = 'open' | 'merged' | 'closed';

export interface ChangeRequestRecord {
  id: string;
  project_id: string;
  branch_id: string;
  owner_id: string;
  title: string;
  description: string | null;
  state: ChangeRequestState;
  created_at: string;
  updated_at: string;
  merged_at: string | null;
  closed_at: string | null;
}

export interface ReviewRecord {
  id: string;
  change_request_id: string;
  reviewer_id: string;
  verdict: Verdict;
  body: string | null;
  branch_version: number;
  ord: number;
  created_at: string;
}

export interface CommentRecord {
  id: string;
  review_id: string;
  body: string;
  anchor_kind: 'node' | 'port' | 'edge' | null;
  anchor_id: string | null;
  anchor_version: number | null;
  anchor_name: string | null;
  in_reply_to: string | null;
  created_at: string;
}

export const TITLE_MAX = 200;
export const TEXT_MAX = 10_000;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A change request's title: trimmed, 1 to TITLE_MAX characters, no control characters. */
export function checkTitle(raw: unknown): string {
  const fail = (msg: string, type: string) =>
    new RequestValidationError([{ loc: ['body', 'title'], msg, type, input: raw }]);
  if (typeof raw !== 'string') throw fail('Field required', 'missing');
  const title = raw.trim();
  if (title.length === 0) throw fail('String should have at least 1 character', 'string_too_short');
  if (characterCount(title) > TITLE_MAX)
    throw fail(`String should have at most ${TITLE_MAX} characters`, 'string_too_long');
  if (CONTROL.test(title)) throw fail('A title may not contain control characters', 'value_error');
  return title;
}

/** An optional text (description, review body): an empty one is null. */
export function optionalText(raw: unknown, loc: (string | number)[]): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string' || characterCount(raw) > TEXT_MAX) {
    throw new RequestValidationError([
      {
        loc,
        msg: `Input should be a string of at most ${TEXT_MAX} characters`,
        type: 'string_type',
        input: raw,
      },
    ]);
  }
  return raw;
}
