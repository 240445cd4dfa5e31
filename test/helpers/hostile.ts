/**
 * Fuzzed query strings against a served site: never a 5xx, always JSON errors with CORS, never a
 * byte from outside the publish folder. The main suite sends a few hundred; the stress suite
 * sends thousands (a count, never a time, bounds each).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSite } from './site.js';

const CANARY = 'canary-7f3c2a-outside-the-publish-folder';
const ENDPOINTS = [
  '/api/cities',
  '/api/available-dates',
  '/api/latest-date',
  '/api/pollen',
  '/api/map-data',
  '/api/weather',
  '/api/pollen-range',
  '/api/forecast',
  '/api/forecast-map',
  '/api/alerts',
  '/api/nearest',
];
const NAMES = ['city', 'date', 'day', 'from', 'to', 'aggregate', 'limit', 'format', 'lat', 'lon', 'zip', 'max_km', 'x', ''];
const hostileValue = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '..',
    '../secret',
    '../../secret',
    '..%2fsecret',
    '%2e%2e/secret',
    '/etc/passwd',
    '\u0000',
    '%00',
    'latest',
    '2025-04-03',
    '2025-04-03T00:00:00Z',
    '-1',
    '0',
    '1e309',
    '99999999999999999999',
    'NaN',
    'austin',
    'austin,austin',
    'a,,b',
    '<script>',
    "' OR 1=1 --",
    '\u202e',
    '😀',
    '%',
    '%zz',
    'null',
    '[]',
    '{}',
    '30.2672',
    '-97.7431',
    '78701',
    '10008',
    '90',
    '-180',
    '1000',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.string({ minLength: 2000, maxLength: 6000 }),
);
// Lone surrogates cannot be sent in a URL; UTF-8 round-tripping replaces them, as a client would.
const wellFormed = (text: string) => Buffer.from(text, 'utf8').toString('utf8');
const query = fc.array(fc.tuple(fc.constantFrom(...NAMES), hostileValue, fc.boolean()), { maxLength: 6 }).map((pairs) =>
  pairs
    .map(([k, raw, keepPercent]) => {
      const v = wellFormed(raw);
      // Sometimes leave `%` sequences as they are, so the server sees malformed escapes too.
      return `${encodeURIComponent(k)}=${keepPercent ? v.replace(/[^%]/gu, (c) => encodeURIComponent(c)) : encodeURIComponent(v)}`;
    })
    .join('&'),
);

/** A suite that sends `runs` fuzzed requests to a site of its own, within `timeoutMs`. */
export function hostileQuerySuite(runs: number, timeoutMs: number): void {
  const site = useSite();
  beforeAll(() => {
    // A file beside the publish folder and one above it: no request may ever read them.
    writeFileSync(join(site.dir, 'secret.json'), JSON.stringify({ canary: CANARY }));
    writeFileSync(join(site.dir, 'secret'), CANARY);
  });

  describe('hostile query strings', () => {
    it(
      `never give a 5xx, always JSON with CORS, and never read outside the publish folder (${runs.toLocaleString('en-US')} requests)`,
      async () => {
        let sent = 0;
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...ENDPOINTS), query, async (endpoint, q) => {
            const res = await site.get(`${endpoint}?${q}`);
            sent++;
            const text = await res.text();
            expect(res.status, `${endpoint}?${q}`).toBeLessThan(500);
            expect(res.headers.get('access-control-allow-origin')).toBe('*');
            expect(text).not.toContain(CANARY);
            if (res.status >= 400) {
              expect(res.headers.get('content-type')).toBe('application/json');
              expect(typeof (JSON.parse(text) as { error: unknown }).error).toBe('string');
            }
          }),
          { numRuns: runs, endOnFailure: true },
        );
        expect(sent).toBe(runs);
      },
      timeoutMs,
    );
  });
}
