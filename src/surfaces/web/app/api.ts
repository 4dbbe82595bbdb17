/** The dashboard's only door to the server: `/v1` calls with the stored API token, writes with the CSRF token. */

const TOKEN_KEY = 'tidepool.token';

/** Thrown when the server wants a token: the router then asks for one. */
export class TokenNeeded extends Error {
  constructor() {
    super('a token is needed');
  }
}

/** Keeps the token the user pasted (a public server needs one; loopback does not). */
export function saveToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token.trim());
}

let csrf: Promise<string> | undefined;

/** The server's CSRF token (read once; only a page of the server's own origin can read it). */
function csrfToken(): Promise<string> {
  csrf ??= fetch('/dashboard/csrf')
    .then((r) => r.json() as Promise<{ csrf?: string }>)
    .then((d) => d.csrf ?? '')
    .catch(() => {
      csrf = undefined;
      return '';
    });
  return csrf;
}

/** Calls the API and returns its JSON; non-2xx answers throw the server's message. A write carries the CSRF token. */
export async function api<T>(path: string, opts: { method?: string; body?: unknown } = {}): Promise<T> {
  const token = localStorage.getItem(TOKEN_KEY);
  const method = opts.method ?? 'GET';
  const headers: Record<string, string> = {};
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  if (method !== 'GET') headers['x-tidepool-csrf'] = await csrfToken();
  const res = await fetch(path, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const data = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
  if (res.status === 401) throw new TokenNeeded();
  if (!res.ok) throw new Error(data.error?.message ?? `HTTP ${res.status}`);
  return data as T;
}
