/** GET /api/available-dates: every UTC day with pollen data, newest first. */
import * as z from 'zod';
import { dayString } from '../../domain/dates.js';
import { named } from '../../domain/schema-names.js';
import { Day } from '../../domain/schemas.js';
import { route } from '../contract/route.js';
import { DATA_PREFIX, once } from '../contract/static-forms.js';

export const AvailableDatesResponse = named(
  'AvailableDatesResponse',
  'UTC dates with pollen observations, newest first.',
  z.object({ dates: z.array(Day) }),
);

export const availableDatesRoute = route({
  path: '/api/available-dates',
  params: {},
  response: AvailableDatesResponse,
  doc: {
    operationId: 'listAvailableDates',
    summary: 'Dates with data',
    description: 'All UTC dates with pollen observations, newest first.',
  },
  llms: 'every UTC date with data, newest first',
  forms: [{ file: `${DATA_PREFIX}/available-dates.json`, unit: 'once', enumerate: once }],
  handle: (_query, { store }) => ({ body: { dates: store.pollen.daysWithData().map(dayString) } }),
});
