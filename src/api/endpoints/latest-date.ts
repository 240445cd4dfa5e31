/** GET /api/latest-date: the newest UTC day with pollen data. */
import * as z from 'zod';
import { dayString } from '../../domain/dates.js';
import { named } from '../../domain/schema-names.js';
import { Day } from '../../domain/schemas.js';
import { NoData, noData } from '../contract/error.js';
import { NO_DATA } from '../contract/not-found.js';
import { route } from '../contract/route.js';
import { DATA_PREFIX, ifData } from '../contract/static-forms.js';

export const LatestDateResponse = named('LatestDateResponse', 'The latest UTC observation date.', z.object({ date: Day }));

export const latestDateRoute = route({
  path: '/api/latest-date',
  params: {},
  response: LatestDateResponse,
  doc: {
    operationId: 'getLatestDate',
    summary: 'Latest date',
    description: 'The latest UTC observation date; 404 while there is none.',
    notFound: { description: NO_DATA, schema: NoData.schema },
  },
  llms: 'the newest UTC date with data',
  tool: {
    name: 'get_latest_date',
    title: 'Latest date with data',
    description: 'The latest UTC date with pollen observations; use it as the default date.',
  },
  forms: [{ file: `${DATA_PREFIX}/latest-date.json`, unit: 'once', enumerate: ifData }],
  handle: (_query, { store }) => {
    const day = store.pollen.latestDay();
    if (day === null) throw noData();
    return { body: { date: dayString(day) } };
  },
});
