/**
 * From a publish-folder path back to the API request it stands for: what the fallback function
 * answers when a rewrite lands on a file the render did not write (a city-day outside the file
 * budget, a date outside the snapshot), and what tests use to ask the handler for a file's answer.
 */

import { DATA_PREFIX, formParams } from '../contract/static-forms.js';
import { findRoute, ROUTES } from '../routes.js';

const FILE_PATTERNS = ROUTES.flatMap((route) =>
  route.forms.map((form) => ({
    route,
    fixed: form.fixed ?? {},
    names: formParams(form),
    pattern: new RegExp(`^/${form.file.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '([^/]*)')}$`), // empty values too: 400, not 404
  })),
);

const FALLBACK = new RegExp(`^/${DATA_PREFIX}/fallback(/.*)$`);

/**
 * The API request a publish-folder path stands for: `/data/pollen/austin/2025-04-01.json` is
 * `/api/pollen?city=austin&date=2025-04-01`, `/data/pollen-local/austin.json` is
 * `/api/pollen?city=austin&timezone=local`, `/data/fallback/pollen` is `/api/pollen` with the
 * query it came with. Path values and fixed values win over query values. Undefined for any other
 * path, `/data/fallback/` of a route without static forms included: an answer computed on request
 * (the range, the forecast, the alerts, health) has one URL, its own, and one cache entry.
 */
export function requestForFile(path: string, query: URLSearchParams): { path: string; query: URLSearchParams } | undefined {
  const fallback = FALLBACK.exec(path);
  if (fallback) {
    const target = `/api${fallback[1]}`;
    return (findRoute(target)?.forms.length ?? 0) > 0 ? { path: target, query } : undefined;
  }
  for (const { route, fixed, names, pattern } of FILE_PATTERNS) {
    const m = pattern.exec(path);
    if (!m || !route.path.startsWith('/api/')) continue;
    const merged = new URLSearchParams(query);
    names.forEach((name, i) => {
      merged.set(name, safeDecode(m[i + 1]!));
    });
    for (const [name, value] of Object.entries(fixed)) merged.set(name, value);
    return { path: route.path, query: merged };
  }
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
