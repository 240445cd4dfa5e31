/**
 * The documentation's shape: the README stays a short door to the pages under docs/, every page
 * speaks of the product as it is (no issue numbers, no work sessions), every relative link and
 * anchor resolves. (test/settings checks the table of environment variables.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const README = join(ROOT, 'README.md');
const CHANGELOG = join(ROOT, 'CHANGELOG.md');
const DOCS = join(ROOT, 'docs');
const pages = () =>
  readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => join(DOCS, f));
const read = (file: string) => readFileSync(file, 'utf8');
const rel = (file: string) => relative(ROOT, file);

/** The text of a Markdown file with its fenced code blocks blanked (line numbers kept). */
function prose(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, (code) => (code.includes('](') ? '' : code));
  });
}

interface Link {
  file: string;
  line: number;
  target: string;
}

/** The Markdown links `[text](target)` outside code, with their line numbers. */
function links(file: string): Link[] {
  return prose(read(file)).flatMap((text, i) =>
    [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => ({ file, line: i + 1, target: m[1]! })),
  );
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings, repeats numbered as GitHub numbers them. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(read(file))) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe('the documentation', () => {
  it('keeps README.md to at most 250 lines', () => {
    const lines = read(README).replace(/\n$/, '').split('\n');
    expect(lines.length).toBeLessThanOrEqual(250);
  });

  it('never speaks of issues or sessions in the README, the changelog or the pages of docs/', () => {
    const found: string[] = [];
    for (const file of [README, CHANGELOG, ...pages()]) {
      read(file)
        .split('\n')
        .forEach((line, i) => {
          for (const m of line.matchAll(/\b(issues?|sessions?|previous session)\b/gi)) found.push(`${rel(file)}:${i + 1}: ${m[0]}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('points every relative link of the README and docs/ to a file that exists', () => {
    const broken = [README, ...pages()]
      .flatMap(links)
      .filter((l) => !isExternal(l.target) && !l.target.startsWith('#'))
      .filter((l) => !existsSync(resolve(dirname(l.file), decodeURIComponent(l.target.split('#')[0]!))))
      .map((l) => `${rel(l.file)}:${l.line}: ${l.target}`);
    expect(broken).toEqual([]);
  });

  it('points every anchor of a relative link to a heading of its page', () => {
    const broken = [README, ...pages()]
      .flatMap(links)
      .filter((l) => !isExternal(l.target) && l.target.includes('#'))
      .filter((l) => {
        const [path, anchor] = l.target.split('#') as [string, string];
        const target = path === '' ? l.file : resolve(dirname(l.file), decodeURIComponent(path));
        return target.endsWith('.md') && existsSync(target) && !anchors(target).has(decodeURIComponent(anchor));
      })
      .map((l) => `${rel(l.file)}:${l.line}: ${l.target}`);
    expect(broken).toEqual([]);
  });

  it('links every page of docs/ from the README', () => {
    const linked = new Set(
      links(README)
        .filter((l) => !isExternal(l.target))
        .map((l) => resolve(ROOT, decodeURIComponent(l.target.split('#')[0]!))),
    );
    const pageFiles = pages();
    expect(pageFiles.length).toBeGreaterThan(0);
    expect(pageFiles.filter((p) => !linked.has(p)).map(rel)).toEqual([]);
  });
});
