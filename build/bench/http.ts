/**
 * The benchmarks over local HTTP, against the local server in a child process of its own (so its
 * memory can be read from /proc): B3 (range.ts), B4 (forecast.ts), B13 (alerts.ts), B9
 * (fallback.ts), B14 (season.ts), B10 (nearest.ts), B12 (bulk-read.ts) and B7 (static.ts); and
 * B16 (outlook.ts), against a server of its own.
 */
import { join } from 'node:path';
import { openStore } from '../../src/store/store.js';
import { alertsBenchmark } from './alerts.js';
import { bulkReadBenchmark } from './bulk-read.js';
import { fallbackBenchmark } from './fallback.js';
import { forecastBenchmark } from './forecast.js';
import type { Measure } from './measure.js';
import { nearestBenchmark } from './nearest.js';
import { outlookBenchmark } from './outlook.js';
import { rangeBenchmark } from './range.js';
import { seasonBenchmark } from './season.js';
import { startChild } from './server.js';
import { staticBenchmark } from './static.js';

/** The first city by slug: the one B9, B12 and B14 ask about. */
function firstCity(db: string): string {
  const store = openStore(db, { readonly: true });
  try {
    return store.cities.set().slugs[0]!;
  } finally {
    store.close();
  }
}

export async function httpBenchmarks(root: string, dir: string, db: string, publish: string): Promise<Measure[]> {
  const forecastDb = join(dir, 'bench-forecast.db');
  const server = await startChild(
    ['--import', 'tsx', 'build/cli.ts', 'serve', '--db', db, '--publish', publish, '--port', '0'],
    { FORECAST_CACHE_DB: forecastDb },
    root,
    /on (http:\/\/127\.0\.0\.1:\d+)/,
  );
  const slug = firstCity(db);
  let measures: Measure[];
  try {
    measures = [
      ...(await rangeBenchmark(server, db)),
      ...(await forecastBenchmark(server, forecastDb)),
      ...(await alertsBenchmark(server)),
      ...(await fallbackBenchmark(server, publish, slug)),
      ...(await seasonBenchmark(server, slug)),
      ...(await nearestBenchmark(server)),
      ...(await bulkReadBenchmark(server, publish, slug)),
      ...(await staticBenchmark(server, root, publish)),
    ];
  } finally {
    server.process.kill();
  }
  return [...measures, ...(await outlookBenchmark(root, dir, db, publish, slug))];
}
