/**
 * Input rules of project create and patch. Violations are 422s with an object detail
 * ({code, message}, e.g. invalid_name), as createProject's contract gives them.
 */
import { InvalidInputError } from '../../shared/errors/domainErrors';
import { characterCount } from '../../shared/text/characters';

export const ALLOWED_LANGUAGES = [
  'python',
  'typescript',
  'javascript',
  'go',
  'rust',
  'java',
  'kotlin',
  'csharp',
  'cpp',
  'c',
  'ruby',
  'swift',
] as const;

export const ALLOWED_INTENTS = [
  'cli',
  'service',
  'library',
  'web_app',
  'worker',
  'pipeline',
] as const;

export const DEFAULT_INTENT = 'cli';
export const DEFAULT_LANGUAGE = 'python';
export const NAME_MAX = 200;
export const TAG_MAX = 40;

/** Returns the trimmed name, or throws invalid_name. */
export function checkProjectName(raw: unknown): string {
  if (typeof raw !== 'string') {
    throw new InvalidInputError('invalid_name', 'name is required and must be a string');
  }
  const name = raw.trim();
  if (name.length === 0) throw new InvalidInputError('invalid_name', 'name must not be blank');
  if (characterCount(raw) > NAME_MAX) {
    throw new InvalidInputError('invalid_name', `name must be at most ${NAME_MAX} characters`);
  }
  return name;
}

function checkTag(
  raw: unknown,
  field: string,
  allowed: readonly string[],
  code: string,
  fallback: string,
): string {
  if (raw === undefined || raw === null) return fallback;
  if (typeof raw !== 'string' || raw.length > TAG_MAX || !allowed.includes(raw)) {
    throw new InvalidInputError(
      code,
      `${field} must be one of ${allowed.join(', ')} (at most ${TAG_MAX} characters)`,
    );
  }
  return raw;
}

export function checkLanguage(raw: unknown): string {
  return checkTag(raw, 'language', ALLOWED_LANGUAGES, 'unsupported_language', DEFAULT_LANGUAGE);
}

export function checkIntent(raw: unknown): string {
  return checkTag(raw, 'intent', ALLOWED_INTENTS, 'unsupported_intent', DEFAULT_INTENT);
}
