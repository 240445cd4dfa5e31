/** What the local server needs from netlify.toml: rewrite rules and header rules. */
import { readFileSync } from 'node:fs';
import { parse } from 'smol-toml';

export interface HeaderRule {
  for: string;
  values: Record<string, string>;
  /** `for` compiled once. */
  pattern?: RegExp;
}

export interface NetlifyConfig {
  /** `[[redirects]]` in `_redirects` syntax, in file order. */
  redirects: string[];
  headers: HeaderRule[];
  functionsDir: string;
  publishDir: string;
}

interface TomlRedirect {
  from: string;
  to: string;
  status?: number;
  force?: boolean;
  query?: Record<string, string>;
}

/** Reads netlify.toml. */
export function readNetlifyConfig(path: string): NetlifyConfig {
  const toml = parse(readFileSync(path, 'utf8')) as {
    build?: { publish?: string; functions?: string };
    redirects?: TomlRedirect[];
    headers?: HeaderRule[];
  };
  return {
    redirects: (toml.redirects ?? []).map((r) =>
      [r.from, ...Object.entries(r.query ?? {}).map(([k, v]) => `${k}=${v}`), r.to, `${r.status ?? 301}${r.force ? '!' : ''}`].join(' '),
    ),
    headers: (toml.headers ?? []).map((h) => ({ ...h, pattern: pathPattern(h.for) })),
    functionsDir: toml.build?.functions ?? 'netlify/functions',
    publishDir: toml.build?.publish ?? '.',
  };
}

/** A Netlify path pattern (`/data/*`, `/api/:name`) as a regular expression. */
export function pathPattern(pattern: string): RegExp {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+'))
    .join('.*');
  return new RegExp(`^${source}$`);
}

/** Headers of every rule matching any of the paths, later rules winning. */
export function headersFor(rules: readonly HeaderRule[], paths: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rule of rules) {
    const re = rule.pattern ?? pathPattern(rule.for);
    if (paths.some((p) => re.test(p))) Object.assign(out, rule.values);
  }
  return out;
}
