import { describe, expect, it } from 'vitest';
import { dayString } from '../../src/domain/dates.js';
import { D, jsonGetter } from '../helpers/api-get.js';
import { useSite } from '../helpers/site.js';

const site = useSite();
const getJson = jsonGetter(site);

describe('GET /api/available-dates', () => {
  it('lists the dates with data newest first', async () => {
    const dates = Array.from({ length: 10 }, (_, i) => dayString(D('2025-04-10') - i));
    expect((await getJson('/api/available-dates')).body).toEqual({ dates });
  });
});
