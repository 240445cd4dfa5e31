/** `ingest` as the CLI runs it: open the store, ingest with progress, print the summary. */
import { dayString } from '../domain/dates.js';
import { createProviders } from '../providers/registry.js';
import { openStore } from '../store/store.js';
import type { IngestArgs } from './args.js';
import { ingest, type IngestSummary } from './ingest.js';
import { progressReporter } from './progress.js';

/** Runs an ingest; with `onlyIfEmpty`, a store that already has data is left alone. */
export async function runIngest(
  args: IngestArgs,
  log: NodeJS.WriteStream,
  out: NodeJS.WritableStream,
  options: { onlyIfEmpty?: boolean } = {},
): Promise<IngestSummary> {
  const store = openStore(args.db);
  try {
    const providers = createProviders({ pollen: args.provider, weather: args.weather, store, purpose: 'ingest' });
    if (options.onlyIfEmpty && store.latestDay() !== null) {
      out.write(`store ${args.db} already has data through ${dayString(store.latestDay()!)}; not ingesting\n`);
      return { cityDays: 0, skipped: 0, written: 0, empty: 0, hourlyRows: 0, weatherRows: 0, calls: 0, failures: [], stopped: {}, seconds: 0 };
    }
    log.write(`ingest: ${providers.pollen.id} pollen, ${providers.weather.id} weather, ${args.cities.length} cities, ${dayString(args.span.from)}..${dayString(args.span.to)} into ${args.db}\n`);
    const summary = await ingest({
      store,
      pollen: providers.pollen,
      weather: providers.weather,
      cities: args.cities,
      span: args.span,
      refresh: args.refresh,
      onProgress: progressReporter(log, 'ingest'),
    });
    out.write(formatSummary(summary));
    return summary;
  } finally {
    store.close();
  }
}

/** The closing lines of an ingest: what was written, how fast, and every city-day that failed. */
export function formatSummary(s: IngestSummary): string {
  const rate = s.seconds > 0 ? Math.round(s.hourlyRows / s.seconds) : 0;
  const empty = s.empty > 0 ? `; ${s.empty} city-days had no pollen data yet (asked again next run)` : '';
  const lines = [
    `ingested ${s.written} city-days (${s.hourlyRows} hourly rows, ${s.weatherRows} weather rows) in ${s.seconds.toFixed(1)} s, ${rate} hourly rows/s; ` +
      `${s.skipped} of ${s.cityDays} already complete; ${s.calls} provider calls; ${s.failures.length} failed${empty}`,
  ];
  for (const [provider, why] of Object.entries(s.stopped)) lines.push(`stopped calling ${provider}: ${why}`);
  for (const f of s.failures) lines.push(`failed: ${f.city} ${f.date} ${f.data}: ${f.failure}: ${f.message}`);
  return lines.join('\n') + '\n';
}
