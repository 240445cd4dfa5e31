/**
 * GET /api/health: how fresh the data is, for an uptime monitor. 200 `ok` while the newest stored
 * hour is at most `maxAgeHours` old, else 503 `stale` (an empty store included). Never cached.
 */
import * as z from 'zod';
import { dayString, HOUR_MS, isoHour, isoTime } from '../../domain/dates.js';
import { DEFAULT_HEALTH_MAX_AGE_HOURS } from '../../settings.js';
import { named } from '../../domain/schema-names.js';
import { DateTime, Day } from '../../domain/schemas.js';
import { route } from '../contract/route.js';

export const HealthResponse = named(
  'HealthResponse',
  'How fresh the data is. Dates and numbers are null for an empty store.',
  z.object({
    status: z.enum(['ok', 'stale']),
    latestDate: Day.nullable(),
    latestHour: DateTime.nullable(),
    dataAgeHours: z.number().nullable(),
    cities: z.number().int(),
    provider: z.string().nullable(),
    lastIngest: DateTime.nullable(),
    node: z.string(),
  }),
);

const NO_STORE = { 'Cache-Control': 'no-store', 'Netlify-CDN-Cache-Control': 'no-store' };

export const healthRoute = route({
  path: '/api/health',
  params: {},
  response: HealthResponse,
  doc: {
    operationId: 'getHealth',
    summary: 'Data freshness',
    description: `For uptime monitors: status "ok" (200) while the newest stored hour is at most HEALTH_MAX_AGE_HOURS (default ${DEFAULT_HEALTH_MAX_AGE_HOURS}) old, else "stale" (503; an empty store included, with nulls). Cache-Control: no-store.`,
    ok: 'The data is fresh.',
    unavailable: { description: 'The data is stale, or there is none yet.', schema: HealthResponse },
  },
  llms: 'how fresh the data is (status ok with 200, or stale with 503), the newest hour, the provider',
  handle: (_query, { store, cities, settings }) => {
    const now = settings.now();
    const latestHour = store.pollen.latestHour();
    const ageHours = latestHour === null ? null : Math.round(((now - latestHour * HOUR_MS) / HOUR_MS) * 10) / 10;
    const ok = ageHours !== null && ageHours <= settings.healthMaxAgeHours;
    const run = store.runs.last();
    const body: z.infer<typeof HealthResponse> = {
      status: ok ? 'ok' : 'stale',
      latestDate: latestHour === null ? null : dayString(Math.floor(latestHour / 24)),
      latestHour: latestHour === null ? null : isoHour(latestHour),
      dataAgeHours: ageHours,
      cities: cities.size,
      provider: store.pollen.latestSource(),
      lastIngest: run ? isoTime(run.finishedAt) : null,
      node: process.version,
    };
    return { status: ok ? 200 : 503, body, headers: NO_STORE };
  },
});
