/**
 * The media type a Content-Type header names, without its parameters and in lower case
 * (`application/json; charset=utf-8` is `application/json`); '' when there is none. Of
 * a header sent twice, the first. What the gateway's validation and the MCP endpoint
 * take for "a JSON body".
 */
export function mediaTypeOf(contentType: string | string[] | undefined): string {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return (value ?? '').split(';', 1)[0].trim().toLowerCase();
}
