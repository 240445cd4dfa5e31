/**
 * The OpenAPI document as a generated client or a validating proxy (Prism) reads it: each value
 * it takes for a parameter, the server takes, and each it refuses, the server refuses (a 400
 * naming the parameter); and every GET it documents is documented, and answered, as a HEAD.
 */

import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { valueSchema } from '../../src/api/contract/query.js';
import { openApiDocument } from '../../src/api/documents/openapi.js';
import { API_ROUTES } from '../../src/api/routes.js';
import { parameterProblem } from '../helpers/openapi.js';
import { useSite } from '../helpers/site.js';

type Json = Record<string, any>;
const doc = openApiDocument(API_ROUTES) as Json;

/** A request each path answers with 200 (its required parameters given), to which the value checked is added. */
const BASE: Record<string, Record<string, string>> = {
  '/api/pollen': { city: 'austin' },
  '/api/map-data': {},
  '/api/pollen-range': { from: '2025-04-02', to: '2025-04-03', city: 'austin' },
  '/api/season': { city: 'austin' },
  '/api/forecast': { city: 'austin' },
  '/api/forecast-map': {},
  '/api/forecast-skill': { city: 'austin' },
  '/api/alerts': { city: 'austin' },
};

/** A word as written, in lower and upper case, with its first letter's case swapped, and a word it is not. */
const spellings = (word: string): string[] => {
  const first = word[0]!;
  const swapped = (first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase()) + word.slice(1);
  return [word, word.toLowerCase(), word.toUpperCase(), swapped, `${word}x`];
};

/** Each parameter of the routes above whose value is one of a few words (or a list of them), with the spellings to try. */
const WORDED: Array<[string, string, string]> = API_ROUTES.filter((r) => r.path in BASE).flatMap((r) =>
  Object.entries(r.params).flatMap(([name, schema]) => {
    const value = valueSchema(schema);
    const words = value instanceof z.ZodArray ? valueSchema(value.element as z.ZodType) : value;
    if (!(words instanceof z.ZodEnum)) return [];
    return words.options.flatMap((w) => spellings(String(w)).map((text): [string, string, string] => [r.path, name, text]));
  }),
);

describe('the OpenAPI document and the server', () => {
  const site = useSite();

  /** Whether the server refuses a value: a 400 naming the parameter. */
  const refuses = async (path: string, name: string, text: string): Promise<boolean> => {
    const res = await site.get(`${path}?${new URLSearchParams({ ...BASE[path], [name]: text })}`);
    const body = (await res.json().catch(() => ({}))) as Json;
    expect(res.status === 400 || res.status < 300, `${path} ${name}=${text} answered ${res.status}`).toBe(true);
    return res.status === 400 && body.parameter === name;
  };

  it('take and refuse the same spellings of every parameter of words, and of the words the docs say any case of', async () => {
    // The spellings docs/api.md calls valid, and a season category in any case.
    const said: Array<[string, string, string]> = [
      ['/api/pollen-range', 'format', 'CSV'],
      ['/api/alerts', 'min', 'high'],
      ['/api/alerts', 'format', 'ICS'],
      ['/api/alerts', 'categories', 'Tree,GRASS'],
      ['/api/forecast-skill', 'category', 'Tree'],
      ['/api/season', 'category', 'Tree'],
      ['/api/season', 'category', 'TREE'],
      ['/api/season', 'category', 'tree-'],
    ];
    expect(WORDED.length).toBeGreaterThan(60);
    const disagreements: string[] = [];
    for (const [path, name, text] of [...WORDED, ...said]) {
      const documented = parameterProblem(path, name, text) === undefined;
      const served = !(await refuses(path, name, text));
      if (documented !== served)
        disagreements.push(
          `${path} ${name}=${text}: the document ${documented ? 'takes' : 'refuses'} it, the server ${served ? 'takes' : 'refuses'} it`,
        );
    }
    expect(disagreements).toEqual([]);
    // The spellings the docs call valid are taken by both.
    for (const [path, name, text] of said.slice(0, -1))
      expect(parameterProblem(path, name, text), `${path} ${name}=${text}`).toBeUndefined();
  }, 240_000);

  it('documents a HEAD beside every GET, with the same statuses, and the server answers it as the GET without a body', async () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      expect(item.head, path).toBeDefined();
      expect(Object.keys(item.head.responses), path).toEqual(Object.keys(item.get.responses));
      expect(item.head.parameters, path).toEqual(item.get.parameters);
      expect(item.head.operationId, path).toBe(`${item.get.operationId}Head`);
      const query = new URLSearchParams(BASE[path] ?? {});
      const url = query.size > 0 ? `${path}?${query}` : path;
      const [get, head] = [await site.get(url), await site.get(url, { method: 'HEAD' })];
      expect(head.status, path).toBe(get.status);
      expect(Object.keys(item.head.responses), path).toContain(String(head.status));
      expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'));
      expect(await head.text(), path).toBe('');
    }
  }, 120_000);
});
