/**
 * Length limits of the API count characters (a project name is 1 to 200 characters), as the
 * OpenAPI document's maxLength does (JSON Schema counts Unicode code points), not
 * UTF-16 code units: an emoji is one character, not two.
 */
export function characterCount(text: string): number {
  // surrogate pairs are the only code points that take two UTF-16 units
  const pairs = text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g);
  return text.length - (pairs ? pairs.length : 0);
}
