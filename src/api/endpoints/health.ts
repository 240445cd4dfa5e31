/**
 * GET /api/health: how fresh the data is, for an uptime monitor. 200 `ok` while the newest stored
 * hour is at most `maxAgeHours` old, else 503 `stale` (an empty store included); 503 `simulated`
 * whatever its age when the newest data is the sample provider's, invented values that a monitor
 * must never read as a healthy deployment (a site whose Netlify builds deployed the sample). Never cached.
 */
import * as z from 'zod';
import { dayString, HOUR_MS, isoHour, isoTime } from '../../domain/dates.js';
import { SIMULATED_PROVIDER } from '../../domain/provenance.js';
import { named } from '../../domain/schema-names.js';
import { DateTime, Day } from '../../domain/schemas.js';
import { DEFAULT_HEALTH_MAX_AGE_HOURS } from '../../settings.js';
import { route } from '../contract/route.js';

export const HealthResponse = named(
  'HealthResponse',
  'How fresh the data is, and whether it is real. Dates and numbers are null for an empty store.',
  z.object({
    status: z.enum(['ok', 'stale', 'simulated']),
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
    description: `For uptime monitors: status "ok" (200) while the newest stored hour is at most HEALTH_MAX_AGE_HOURS (default ${DEFAULT_HEALTH_MAX_AGE_HOURS}) old, else "stale" (503; an empty store included, with nulls); "simulated" (503), whatever its age, when the newest data is the bundled ${SIMULATED_PROVIDER} provider's, invented for demonstration. Cache-Control: no-store.`,
    ok: 'The data is real and fresh.',
    unavailable: { description: 'The data is stale, there is none yet, or it is simulated.', schema: HealthResponse },
  },
  llms: 'how fresh the data is (status ok with 200; stale, or simulated for the sample provider, with 503), the newest hour, the provider',
  handle: (_query, { store, cities, settings }) => {
    const now = settings.now();
    const latestHour = store.pollen.latestHour();
    const ageHours = latestHour === null ? null : Math.round(((now - latestHour * HOUR_MS) / HOUR_MS) * 10) / 10;
    const provider = store.pollen.latestSource();
    const fresh = ageHours !== null && ageHours <= settings.healthMaxAgeHours;
    const status = provider === SIMULATED_PROVIDER ? 'simulated' : fresh ? 'ok' : 'stale';
    const run = store.runs.last();
    const body: z.infer<typeof HealthResponse> = {
      status,
      latestDate: latestHour === null ? null : dayString(Math.floor(latestHour / 24)),
      latestHour: latestHour === null ? null : isoHour(latestHour),
      dataAgeHours: ageHours,
      cities: cities.size,
      provider,
      lastIngest: run ? isoTime(run.finishedAt) : null,
      node: process.version,
    };
    return { status: status === 'ok' ? 200 : 503, body, headers: NO_STORE };
  },
});
