import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { findRoute } from '../../src/api/routes.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { redirectsFile, routeRules, staticRules } from '../../src/render/redirects.js';
import { readNetlifyConfig } from '../../src/server/netlify-config.js';
import { ROOT } from '../helpers/cli.js';

describe('rewrite rules', () => {
  it('put per-city rules with two parameters before one, then the unsupported-city catch, then date-only', () => {
    const rules = routeRules(findRoute('/api/pollen')!, DEFAULT_CITIES.slugs);
    const plain = rules.slice(rules.indexOf('/api/pollen timezone=:timezone /data/fallback/pollen 200') + 1);
    const first = DEFAULT_CITIES.list[0]!.slug;
    expect(plain.slice(0, 2)).toEqual([
      `/api/pollen city=${first} date=:date /data/pollen/${first}/:date.json 200`,
      `/api/pollen city=${first} /data/pollen/${first}.json 200`,
    ]);
    expect(plain).toHaveLength(DEFAULT_CITIES.list.length * 2 + 2);
    expect(plain.at(-2)).toBe('/api/pollen city=:city /data/fallback/pollen 200');
    expect(plain.at(-1)).toBe('/api/pollen date=:date /data/pollen/by-date/:date.json 200');
  });

  it('put the local-day rules first: a local city-day to the function, local files, then any other timezone to the function', () => {
    const rules = routeRules(findRoute('/api/pollen')!, DEFAULT_CITIES.slugs);
    const first = DEFAULT_CITIES.list[0]!.slug;
    const n = DEFAULT_CITIES.list.length;
    // A local city-day is not rendered (its hours cross two UTC files), so no shorter rule may take it.
    expect(rules[0]).toBe('/api/pollen city=:city date=:date timezone=local /data/fallback/pollen 200');
    expect(rules[1]).toBe(`/api/pollen city=${first} timezone=local /data/pollen-local/${first}.json 200`);
    expect(rules.slice(n + 1, n + 4)).toEqual([
      '/api/pollen city=:city timezone=local /data/fallback/pollen 200',
      '/api/pollen date=:date timezone=local /data/pollen-local/by-date/:date.json 200',
      '/api/pollen timezone=:timezone /data/fallback/pollen 200',
    ]);
    expect(rules).toHaveLength(n + 4 + n * 2 + 2);
    expect(routeRules(findRoute('/api/map-data')!, DEFAULT_CITIES.slugs)).toEqual([
      '/api/map-data date=:date timezone=local /data/map-data-local/:date.json 200',
      '/api/map-data timezone=:timezone /data/fallback/map-data 200',
      '/api/map-data date=:date /data/map-data/:date.json 200',
    ]);
  });

  it('keep the static rules of netlify.toml in step with the route list, with the /api/* catch-all last', () => {
    const toml = readNetlifyConfig(join(ROOT, 'netlify.toml'));
    expect(toml.redirects).toEqual([...staticRules().map((r) => `${r.from} ${r.to} 200`), '/api/* /data/fallback/:splat 200']);
    expect(toml.publishDir).toBe('publish');
    expect(toml.functionsDir).toBe('functions');
  });

  it('never send a parameterless request of a route with query forms to a file (the fallback answers it)', () => {
    const toml = readNetlifyConfig(join(ROOT, 'netlify.toml'));
    for (const path of ['/api/pollen', '/api/map-data', '/api/weather'])
      expect(toml.redirects.some((r) => r.startsWith(`${path} `))).toBe(false);
    expect(redirectsFile(DEFAULT_CITIES.slugs)).not.toMatch(/latest\.json/);
  });

  it('generate _redirects for every route with query parameters', () => {
    const file = redirectsFile(DEFAULT_CITIES.slugs);
    for (const path of ['/api/pollen', '/api/weather', '/api/map-data']) expect(file).toContain(`\n${path} `);
    expect(file).not.toContain('/api/cities');
    expect(file).toContain('/api/map-data date=:date /data/map-data/:date.json 200');
  });
});

describe('netlify.toml functions', () => {
  const toml = parse(readFileSync(join(ROOT, 'netlify.toml'), 'utf8')) as {
    functions: Record<string, unknown> & { included_files?: string[] };
  };
  const fns = readdirSync(join(ROOT, 'functions')).map((f) => f.replace(/\.ts$/, ''));

  it("ships no store: the shards' manifest with the functions that read them, the site file with all, and the outlook where it is answered", () => {
    expect(toml.functions.included_files).toBeUndefined(); // per-function settings add to global ones
    const included = (name: string) => (toml.functions[name] as { included_files?: string[] } | undefined)?.included_files ?? [];
    for (const name of ['fallback', 'pollen-range', 'health'])
      expect(included(name), name).toEqual(['snapshots/served/shards.json', 'snapshots/served/site.json']);
    // get_bulk_files, and get_forecast's outlook to 7 days
    expect(included('mcp')).toEqual([
      'snapshots/served/shards.json',
      'snapshots/served/site.json',
      'snapshots/served/bulk-index.json',
      'snapshots/served/outlook.json',
    ]);
    expect(Object.values(toml.functions).flatMap((f) => (f as { included_files?: string[] }).included_files ?? [])).not.toContain(
      'snapshots/served/serve.db',
    );
    expect(included('forecast')).toEqual(['snapshots/served/site.json', 'snapshots/served/outlook.json']); // days=, and the alerts' outlook
    expect(included('nearest')).toEqual(['snapshots/served/site.json']);
    expect(fns.sort()).toEqual(['fallback', 'forecast', 'health', 'mcp', 'nearest', 'pollen-range']);
  });
});
