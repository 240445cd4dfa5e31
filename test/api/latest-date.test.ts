import { describe, expect, it } from 'vitest';
import { jsonGetter } from '../helpers/api-get.js';
import { useSite } from '../helpers/site.js';

const site = useSite();
const getJson = jsonGetter(site);

describe('GET /api/latest-date', () => {
  it('gives the newest date with data', async () => {
    expect((await getJson('/api/latest-date')).body).toEqual({ date: '2025-04-10' });
  });
});
