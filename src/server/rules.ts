/**
 * The rewrite rules of the local server: the generated `_redirects` then netlify.toml's, matched by
 * netlify-redirector (Netlify's own rules engine), read leniently or exactly (see ServeOptions).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import redirector, { type RedirectMatcher } from 'netlify-redirector';
import type { NetlifyConfig } from './netlify-config.js';

/** The matcher for a request with these query parameter names. */
export type RulesFor = (queryNames: readonly string[]) => Promise<RedirectMatcher>;

/**
 * The matcher for the current `_redirects` plus netlify.toml, rebuilt when a render replaces the
 * file. In `exact` mode a rule with query conditions is kept only for requests whose parameter
 * names are exactly its own.
 */
export function rulesLoader(publishDir: string, config: NetlifyConfig, queryMatching: 'lenient' | 'exact'): RulesFor {
  let cached: { key: string; lines: string[]; matchers: Map<string, Promise<RedirectMatcher>> } | undefined;
  return (queryNames) => {
    const file = join(publishDir, '_redirects');
    const key = existsSync(file) ? `${statSync(file).ino}:${statSync(file).mtimeMs}` : 'none';
    if (cached?.key !== key) {
      const generated = existsSync(file) ? readFileSync(file, 'utf8') : '';
      cached = { key, lines: [...generated.split('\n'), ...config.redirects], matchers: new Map() };
    }
    const names = queryMatching === 'exact' ? [...new Set(queryNames)].sort().join('&') : '*';
    let matcher = cached.matchers.get(names);
    if (!matcher) {
      const lines = queryMatching === 'exact' ? cached.lines.filter((line) => exactly(line, names)) : cached.lines;
      cached.matchers.set(names, (matcher = redirector.parsePlain(lines.join('\n'), {})));
    }
    return matcher;
  };
}

/** Whether a `_redirects` line applies to a request with these parameter names under the exact reading. */
function exactly(line: string, names: string): boolean {
  const tokens = line.trim().split(/\s+/);
  if (tokens.length < 3 || tokens[0]!.startsWith('#')) return true;
  const conditions = tokens.slice(1, -2).filter((t) => t.includes('='));
  return (
    conditions.length === 0 ||
    conditions
      .map((c) => c.slice(0, c.indexOf('=')))
      .sort()
      .join('&') === names
  );
}
