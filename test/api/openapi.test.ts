import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi.js';
import { ROUTES } from '../../src/api/routes.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';

describe('the OpenAPI document', () => {
  it('describes every API route with its parameters and error responses', () => {
    const doc = openApiDocument() as { paths: Record<string, { get: { parameters: Array<{ name: string }>; responses: Record<string, unknown> } }> };
    const apiRoutes = ROUTES.map((r) => r.path).filter((p) => p.startsWith('/api/'));
    expect(Object.keys(doc.paths).sort()).toEqual(apiRoutes.sort());
    expect(doc.paths['/api/pollen-range']!.get.parameters.map((p) => p.name)).toEqual(['from', 'to', 'city', 'aggregate', 'limit', 'format']);
    expect(Object.keys(doc.paths['/api/forecast']!.get.responses)).toEqual(['200', '400', '404', '405', '500', '503']);
    expect(doc.paths['/api/pollen']!.get.parameters.map((p) => p.name)).toEqual(['city', 'date']);
    expect(Object.keys(doc.paths['/api/weather']!.get.responses)).toEqual(['200', '400', '404', '405', '500']);
  });

  it('rejects bodies that break the schema, so the response checks can fail', () => {
    expect(() => expectMatchesOpenApi('/api/cities', 200, { cities: [{ name: 'X' }] })).toThrow();
    expect(() => expectMatchesOpenApi('/api/latest-date', 200, { date: '2025-02-30' })).toThrow();
    expect(() => expectMatchesOpenApi('/api/weather', 200, { rows: [{ city_slug: 'a', date: '2025-01-01', aqi: 6 }] })).toThrow();
    expect(() => expectMatchesOpenApi('/api/weather', 200, { rows: [{ city_slug: 'a', date: '2025-01-01', humidity: null }] })).toThrow();
    expect(() => expectMatchesOpenApi('/api/pollen', 404, { error: 'x', code: 'UNSUPPORTED_CITY' })).toThrow();
    expectMatchesOpenApi('/api/weather', 200, { rows: [{ city_slug: 'a', date: '2025-01-01', aqi: 5 }] });
  });
});
