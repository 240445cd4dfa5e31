/** B12: one city's month of the hourly Parquet file read over HTTP with hyparquet, against pollen-range for the same rows. */
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { asyncBufferFromUrl, parquetReadObjects } from 'hyparquet';
import type { BulkManifest } from '../../src/deploy-data/bulk-index.js';
import { type Measure, mb, ms, percentile } from './measure.js';
import { type Child, sequential } from './server.js';

export async function bulkReadBenchmark(server: Child, publish: string, slug: string): Promise<Measure[]> {
  const manifest = JSON.parse(readFileSync(join(realpathSync(publish), 'data', 'bulk', 'index.json'), 'utf8')) as BulkManifest;
  const hourly = manifest.files.filter((f) => f.kind === 'pollen-hourly' && f.format === 'parquet');
  const month = hourly.length > 2 ? hourly.at(-2)! : hourly.at(-1)!;
  const next = new Date(Date.UTC(Number(month.month!.slice(0, 4)), Number(month.month!.slice(5)), 1)).toISOString().slice(0, 10);
  const monthRangeUrl = `${server.url}/api/pollen-range?from=${month.month}-01&to=${next}&city=${slug}&limit=50000`;
  let fetched = 0;
  const counting: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    fetched += Number(res.headers.get('content-length') ?? 0);
    return res;
  };
  const readMonth = async () => {
    const file = await asyncBufferFromUrl({ url: `${server.url}${month.path}`, byteLength: month.bytes, fetch: counting });
    return parquetReadObjects({ file, filter: { city: { $eq: slug } } });
  };
  const parquetTimes: number[] = [];
  let parquetRows = 0;
  for (let i = 0; i < 21; i++) {
    fetched = 0;
    const t = performance.now();
    parquetRows = (await readMonth()).length;
    parquetTimes.push(performance.now() - t);
  }
  const rangeRuns = await sequential(21, monthRangeUrl);
  const parquetP50 = percentile(parquetTimes, 50);
  const rangeP50 = percentile(
    rangeRuns.map((r) => r.ms),
    50,
  );
  return [
    {
      id: 'B12',
      what: `${slug}'s ${month.month} (${parquetRows} hours) read with hyparquet over HTTP from ${month.path} (${mb(month.bytes)}): ${(fetched / 1024).toFixed(0)} kB fetched (${((100 * fetched) / month.bytes).toFixed(1)}% of the file); p50 of 21`,
      value: ms(parquetP50),
      baseline: `${ms(rangeP50)} (/api/pollen-range for the same rows, ${(rangeRuns[0]!.bytes / 1024).toFixed(0)} kB of JSON)`,
      ratio: parquetP50 / rangeP50,
      target: 'reported',
      met: null,
    },
  ];
}
