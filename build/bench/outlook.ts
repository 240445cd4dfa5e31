/**
 * B16: /api/forecast?days=7, the forecast with the outlook to 7 days ahead (api/endpoints/forecast-outlook.ts),
 * warm p50 and p95 over local HTTP, against /api/forecast for the same city, warm, same function.
 * The server runs in a child of its own whose clock reads the outlook's issue day (fixed-clock.ts):
 * the bench workload's days are fixed, and on any later day its outlook would reach none of the
 * days asked for.
 */

import { outlookFilePath, readOutlookFile } from '../../src/deploy-data/outlook-file.js';
import { DAY_MS, dayNumber } from '../../src/domain/dates.js';
import { type Measure, ms, percentile } from './measure.js';
import { sequential, startChild } from './server.js';

const REQUESTS = 100;
const WARM = 5;

export async function outlookBenchmark(root: string, dir: string, db: string, publish: string, slug: string): Promise<Measure[]> {
  const issued = readOutlookFile(outlookFilePath(db))?.issued;
  if (!issued) throw new Error('the render left no outlook beside the store');
  // Noon UTC of the issue day: every US city's local day is the same date.
  const now = dayNumber(issued) * DAY_MS + DAY_MS / 2;
  const server = await startChild(
    [
      '--import',
      'tsx',
      '--import',
      './build/bench/fixed-clock.ts',
      'build/cli.ts',
      'serve',
      '--db',
      db,
      '--publish',
      publish,
      '--port',
      '0',
    ],
    { FORECAST_CACHE_DB: `${dir}/bench-outlook-forecast.db`, BENCH_NOW: String(now) },
    root,
    /on (http:\/\/127\.0\.0\.1:\d+)/,
  );
  try {
    const url = `${server.url}/api/forecast?city=${slug}`;
    const answer = (await (await fetch(`${url}&days=7`)).json()) as { outlook: { dates: unknown[] } | null };
    const dates = answer.outlook?.dates.length ?? 0;
    if (dates !== 8) throw new Error(`/api/forecast?days=7 answered ${dates} outlook dates, not 8`);
    await sequential(WARM, `${url}&days=7`);
    await sequential(WARM, url);
    // Alternating, so that both see the same moments of a shared machine.
    const [withOutlook, forecast]: [number[], number[]] = [[], []];
    for (let i = 0; i < REQUESTS; i++) {
      withOutlook.push((await sequential(1, `${url}&days=7`))[0]!.ms);
      forecast.push((await sequential(1, url))[0]!.ms);
    }
    const [p50, p95, baseline] = [percentile(withOutlook, 50), percentile(withOutlook, 95), percentile(forecast, 50)];
    return [
      {
        id: 'B16',
        what: `/api/forecast?city=${slug}&days=7 (the forecast cached, the outlook's 8 dates from the render's outlook file), warm p50 of ${REQUESTS}; p95 ${ms(p95)}`,
        value: ms(p50),
        baseline: `${ms(baseline)} (/api/forecast?city=${slug} without days, warm p50 of ${REQUESTS}, same function, requests alternating)`,
        ratio: p50 / baseline,
        target: 'reported (CDN-cached 5 minutes as /api/forecast)',
        met: null,
      },
    ];
  } finally {
    server.process.kill();
  }
}
