import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';

describe('the OpenAPI document', () => {
  it('describes every API route with its parameters and error responses', () => {
    const doc = openApiDocument() as { paths: Record<string, { get: { parameters: Array<{ name: string }>; responses: Record<string, unknown> } }> };
    expect(Object.keys(doc.paths).sort()).toEqual(['/api/available-dates', '/api/cities', '/api/latest-date', '/api/map-data', '/api/pollen', '/api/weather']);
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
