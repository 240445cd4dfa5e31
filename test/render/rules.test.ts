import { join } from 'node:path';
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

  it('generate _redirects for every route with query parameters', () => {
    const file = redirectsFile();
    for (const path of ['/api/pollen', '/api/weather', '/api/map-data']) expect(file).toContain(`\n${path} `);
    expect(file).not.toContain('/api/cities');
    expect(file).toContain('/api/map-data date=:date /data/map-data/:date.json 200');
  });
});
