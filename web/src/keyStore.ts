/**
 * The API key lives in sessionStorage only (gone when the tab closes), is sent only
 * as the bearer header, and never appears in a URL, the page or a log.
 */
const KEY = 'gds.apiKey';

export function readKey(): string | null {
  return window.sessionStorage.getItem(KEY);
}

export function storeKey(key: string): void {
  window.sessionStorage.setItem(KEY, key.trim());
}

export function forgetKey(): void {
  window.sessionStorage.removeItem(KEY);
}
