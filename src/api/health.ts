/**
 * GET /api/health: how fresh the data is, for an uptime monitor. 200 `ok` while the newest stored
 * hour is at most `maxAgeHours` old, else 503 `stale` (an empty store included). Never cached.
 */
import { dayString, HOUR_MS, isoHour, isoTime } from '../domain/dates.js';
import type { Handler } from './handler.js';

const NO_STORE = { 'Cache-Control': 'no-store', 'Netlify-CDN-Cache-Control': 'no-store' };

export const health: Handler = (_query, { store, cities, settings }) => {
  const now = settings.now();
  const latestHour = store.pollen.latestHour();
  const ageHours = latestHour === null ? null : Math.round(((now - latestHour * HOUR_MS) / HOUR_MS) * 10) / 10;
  const ok = ageHours !== null && ageHours <= settings.healthMaxAgeHours;
  const run = store.runs.last();
  const body = {
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
};
