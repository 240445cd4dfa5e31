/** The Netlify Functions adapter: a web Request in, the shared `respond` out, as a web Response. */
import { resolve } from 'node:path';
import { openStore, DEFAULT_DB_PATH, type Store } from '../store/store.js';
import { respond } from './http.js';
import { requestForFile } from './routes.js';

const opened = new Map<string, Store>();

/** The read-only store at `$POLLEN_DB` (or the default path), opened once per process. */
export function functionStore(): Store {
  const path = resolve(process.env.POLLEN_DB ?? DEFAULT_DB_PATH);
  let store = opened.get(path);
  if (!store) opened.set(path, (store = openStore(path, { readonly: true })));
  return store;
}

/**
 * Answers a request the CDN had no file for: an `/api/...` URL as it is, or a publish-folder path
 * (`/data/...`, where rewrites land) as the API request that path stands for.
 */
export function answer(request: Request, store: () => Store = functionStore): Response {
  const url = new URL(request.url);
  const mapped = url.pathname.startsWith('/api/') ? undefined : requestForFile(url.pathname, url.searchParams);
  const r = respond({ method: request.method, path: url.pathname, query: url.searchParams, ...mapped }, store);
  return new Response(r.body === '' ? null : r.body, { status: r.status, headers: r.headers });
}
