import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseInstant } from '../../src/api/endpoints/range-params.js';
import { respond } from '../../src/api/http/respond.js';
import { isIsoDate } from '../../src/domain/dates.js';
import { openStore } from '../../src/store/store.js';
import { storeContext } from '../../src/wiring/contexts.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { tempDir } from '../helpers/tmp.js';

describe('an empty store', () => {
  it.each([
    ['/api/latest-date', '', 404],
    ['/api/pollen', '', 404],
    ['/api/map-data', '', 404],
    ['/api/weather', '', 404],
    ['/api/available-dates', '', 200],
    ['/api/pollen', 'city=austin', 200],
    ['/api/pollen', 'date=2025-04-01', 200],
  ])('answers %s?%s with %i, as the OpenAPI document says', async (path, query, status) => {
    const dir = tempDir();
    openStore(join(dir, 'empty.db')).close();
    const store = openStore(join(dir, 'empty.db'), { readonly: true });
    const r = await respond({ method: 'GET', path, query: new URLSearchParams(query) }, storeContext(store));
    store.close();
    expect(r.status).toBe(status);
    const body = JSON.parse(r.body as string) as { error?: string };
    expectMatchesOpenApi(path, status, body);
    if (status === 404) expect(body).toEqual({ error: 'No observations are available yet', code: 'NO_DATA' });
  });
});

describe('dates at the edges of the calendar', () => {
  it('accepts years 0000 to 0099 and refuses instants past year 9999', () => {
    expect(isIsoDate('0050-01-01')).toBe(true);
    expect(isIsoDate('0050-02-29')).toBe(false);
    expect(parseInstant('0050-01-01')).toBe(Date.parse('0050-01-01T00:00:00Z'));
    expect(parseInstant('9999-12-31T18:00:00Z')).toBeDefined();
    expect(parseInstant('9999-12-31T23:00:00-05:00')).toBeUndefined();
  });
});
