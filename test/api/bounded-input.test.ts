/**
 * Bounded work per request: every parameter of every route takes text up to its longest
 * (src/api/contract/query.ts), and one character more is a 400 naming it before anything reads it; an
 * unknown slug's nearest-slug search measures only slugs it could be near, and stops at its bound
 * (src/domain/city-search.ts), counted in the cells it fills, not timed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxLengthOf } from '../../src/api/contract/query.js';
import { API_ROUTES } from '../../src/api/routes.js';
import { DEFAULT_CITIES, slugify } from '../../src/domain/cities.js';
import { closestSlug } from '../../src/domain/city-search.js';
import { useSite } from '../helpers/site.js';

const site = useSite({ cities: ['austin', 'tulsa'] });

/** A valid value of each parameter a route requires, so that the one under test is what the answer is about. */
const REQUIRED: Record<string, string> = { city: 'austin', from: '2025-04-01', to: '2025-04-02' };

/** Every route's parameters, each with the rest of a request that could answer. */
const cases = API_ROUTES.flatMap((route) =>
  Object.entries(route.params).map(([name, schema]) => {
    const others = Object.entries(route.params)
      .filter(([other, s]) => other !== name && !s.safeParse(undefined).success)
      .map(([other]) => `${other}=${encodeURIComponent(REQUIRED[other]!)}`);
    return { path: route.path, name, longest: maxLengthOf(schema), others };
  }),
);

describe('every parameter of every route', () => {
  it('are every parameter of the ten routes that take any, each required one given a valid value', () => {
    expect(new Set(cases.map((c) => c.path)).size).toBe(10);
    expect(cases).toHaveLength(API_ROUTES.reduce((n, r) => n + Object.keys(r.params).length, 0));
    for (const c of cases) for (const other of c.others) expect(other, c.path).not.toMatch(/=undefined$/);
  });

  it.each(cases)('$path takes $name up to its longest and refuses one character more', async ({ path, name, longest, others }) => {
    const ask = async (length: number) => {
      const res = await site.get(`${path}?${[...others, `${name}=${'a'.repeat(length)}`].join('&')}`);
      return { status: res.status, body: (await res.json().catch(() => ({}))) as { error?: string; code?: string; parameter?: string } };
    };
    const tooLong = `at most ${longest} characters`;
    const at = await ask(longest);
    expect(at.status, `${path} ${name}`).toBeLessThan(500);
    expect(at.body.error ?? '').not.toContain(tooLong);
    const past = await ask(longest + 1);
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({ code: 'INVALID_PARAMETER', parameter: name });
    expect(past.body.error).toMatch(new RegExp(`^Invalid parameter '${name}': expected .*, ${tooLong}$`));
  });
});

/** The optimal string alignment distance, the whole matrix filled: what the bounded search must agree with. */
function fullDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

/**
 * The nearest slug as the whole matrices say, to the slug the text makes (a leading or trailing
 * dash is no part of one: "-calle" is measured as "calle"): the least distance within a third of
 * its length, ties to the first in byte order.
 */
function reference(text: string): string | undefined {
  const key = slugify(text);
  if (key === '') return undefined;
  const slugs = DEFAULT_CITIES.list.map((c) => c.slug).sort();
  let best: { slug: string; distance: number } | undefined;
  for (const slug of slugs) {
    const distance = fullDistance(key, slug);
    if (!best || distance < best.distance) best = { slug, distance };
  }
  return best && best.distance <= Math.max(1, Math.floor(key.length / 3)) ? best.slug : undefined;
}

describe('the nearest-slug search', () => {
  const cities = DEFAULT_CITIES.list;
  const slugs = cities.map((c) => c.slug);

  it('measures no slug that a long text cannot be near, and fills no cell for the longest slug accepted', () => {
    const work = { cells: 0 };
    expect(closestSlug(cities, 'x'.repeat(64), work)).toBeUndefined();
    // The longest built-in slug is far shorter than 64 - 64/3.
    expect(Math.max(...slugs.map((s) => s.length))).toBeLessThan(64 - 21);
    expect(work.cells).toBe(0);
  });

  it('finds what the whole matrices find, filling fewer cells than they would (property)', () => {
    const typo = fc
      .tuple(
        fc.constantFrom(...slugs),
        fc.nat(),
        fc.constantFrom('drop', 'swap', 'change', 'add'),
        fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz-'),
      )
      .map(([slug, at, kind, letter]) => {
        const i = at % slug.length;
        if (kind === 'drop') return slug.slice(0, i) + slug.slice(i + 1);
        if (kind === 'swap' && i + 1 < slug.length) return slug.slice(0, i) + slug[i + 1] + slug[i] + slug.slice(i + 2);
        if (kind === 'add') return slug.slice(0, i) + letter + slug.slice(i);
        return slug.slice(0, i) + letter + slug.slice(i + 1);
      });
    fc.assert(
      fc.property(fc.oneof(typo, fc.stringMatching(/^[a-z-]{1,40}$/)), (text) => {
        const work = { cells: 0 };
        expect(closestSlug(cities, text, work)).toBe(reference(text));
        // The whole matrices' cells, every slug measured: the bound leaves most of them unfilled.
        const whole = slugs.reduce((n, s) => n + text.length * s.length, 0);
        expect(work.cells).toBeLessThanOrEqual(whole);
        if (text.length >= 6) expect(work.cells).toBeLessThan(whole / 2);
      }),
      // A text whose slug drops a dash it begins with, as random runs found once.
      { numRuns: 300, examples: [['-calle']] },
    );
  });
});
