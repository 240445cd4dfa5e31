/**
 * B13: /api/alerts in each form from a warm forecast cache, against /api/forecast's warm day view of
 * the same city. Austin: the sample forecast has pollen there in November too (Wichita's is empty
 * then), so the forms carry entries; the row says how many.
 */
import { type Measure, ms } from './measure.js';
import { type Child, p50 } from './server.js';

const CITY = 'austin';

export async function alertsBenchmark(server: Child): Promise<Measure[]> {
  const forecastWarm = await p50(`${server.url}/api/forecast?city=${CITY}&aggregate=day&timezone=local`, 100, 5);
  const alertP50s: string[] = [];
  let alertsJson = 0;
  for (const format of ['json', 'ics', 'atom', 'jsonfeed']) {
    const p = await p50(`${server.url}/api/alerts?city=${CITY}&min=Low&format=${format}`, 100, 5);
    if (format === 'json') alertsJson = p;
    alertP50s.push(`${format} ${ms(p)}`);
  }
  const alertCount = ((await (await fetch(`${server.url}/api/alerts?city=${CITY}&min=Low`)).json()) as { alerts: unknown[] }).alerts.length;
  return [
    {
      id: 'B13',
      what: `/api/alerts?city=${CITY}&min=Low (${alertCount} alerts) warm p50 of 100, the forecast cached: ${alertP50s.join(', ')}`,
      value: ms(alertsJson),
      baseline: `${ms(forecastWarm)} (/api/forecast?aggregate=day&timezone=local for the same city, warm, same function)`,
      ratio: alertsJson / forecastWarm,
      target: 'reported (CDN-cached 5 minutes as /api/forecast)',
      met: null,
    },
  ];
}
