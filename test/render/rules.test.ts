import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { CITIES } from '../../src/domain/cities.js';
import { redirectsFile, routeRules, staticRules } from '../../src/render/redirects.js';
import { findRoute } from '../../src/api/routes.js';
import { readNetlifyConfig } from '../../src/server/netlify-config.js';
import { ROOT } from '../helpers/cli.js';

describe('rewrite rules', () => {
  it('put per-city rules with two parameters before one, then the unsupported-city catch, then date-only', () => {
    const rules = routeRules(findRoute('/api/pollen')!);
    expect(rules.slice(0, 2)).toEqual([
      `/api/pollen city=${CITIES[0]!.slug} date=:date /data/pollen/${CITIES[0]!.slug}/:date.json 200`,
      `/api/pollen city=${CITIES[0]!.slug} /data/pollen/${CITIES[0]!.slug}.json 200`,
    ]);
    expect(rules).toHaveLength(CITIES.length * 2 + 2);
    expect(rules.at(-2)).toBe('/api/pollen city=:city /data/fallback/pollen 200');
    expect(rules.at(-1)).toBe('/api/pollen date=:date /data/pollen/by-date/:date.json 200');
  });

  it('keep the static rules of netlify.toml in step with the route list, with the /api/* catch-all last', () => {
    const toml = readNetlifyConfig(join(ROOT, 'netlify.toml'));
    expect(toml.redirects).toEqual([...staticRules().map((r) => `${r.from} ${r.to} 200`), '/api/* /data/fallback/:splat 200']);
    expect(toml.publishDir).toBe('publish');
    expect(toml.functionsDir).toBe('functions');
  });

  it('never send a parameterless request of a route with query forms to a file (the fallback answers it)', () => {
    const toml = readNetlifyConfig(join(ROOT, 'netlify.toml'));
    for (const path of ['/api/pollen', '/api/map-data', '/api/weather']) expect(toml.redirects.some((r) => r.startsWith(`${path} `))).toBe(false);
    expect(redirectsFile()).not.toMatch(/latest\.json/);
  });

  it('generate _redirects for every route with query parameters', () => {
    const file = redirectsFile();
    for (const path of ['/api/pollen', '/api/weather', '/api/map-data']) expect(file).toContain(`\n${path} `);
    expect(file).not.toContain('/api/cities');
    expect(file).toContain('/api/map-data date=:date /data/map-data/:date.json 200');
  });
});

describe('netlify.toml functions', () => {
  const toml = parse(readFileSync(join(ROOT, 'netlify.toml'), 'utf8')) as { functions: Record<string, unknown> & { included_files?: string[] } };
  const fns = readdirSync(join(ROOT, 'functions')).map((f) => f.replace(/\.ts$/, ''));

  it('ships the store only with the functions that open it, and the forecast only the site file', () => {
    expect(toml.functions.included_files).toBeUndefined(); // per-function settings add to global ones
    const included = (name: string) => (toml.functions[name] as { included_files?: string[] } | undefined)?.included_files ?? [];
    for (const name of ['fallback', 'pollen-range', 'mcp', 'health']) expect(included(name), name).toEqual(['snapshots/pollen.db']);
    expect(included('forecast')).toEqual(['snapshots/site.json']);
    expect(fns.sort()).toEqual(['fallback', 'forecast', 'health', 'mcp', 'pollen-range']);
  });
});
