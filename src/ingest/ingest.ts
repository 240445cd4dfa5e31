/** Pulls provider data into the store, one transaction per city-day, skipping what is complete. */
import type { City } from '../domain/cities.js';
import { dayString } from '../domain/dates.js';
import type { WeatherValues } from '../domain/weather.js';
import { ProviderError, type DaySpan, type PollenProvider, type ProviderFailure, type WeatherProvider } from '../providers/provider.js';
import type { PollenHour, Store } from '../store/store.js';
import { hoursByDay, weatherByDay } from './normalize.js';

export interface IngestOptions {
  store: Store;
  pollen: PollenProvider;
  weather: WeatherProvider | null;
  cities: readonly City[];
  /** Inclusive span of UTC day numbers. */
  span: DaySpan;
  /** Re-fetch and overwrite days already stored. */
  refresh?: boolean;
  /** Cities fetched at the same time. */
  concurrency?: number;
  now?: () => number;
  onProgress?: (progress: IngestProgress) => void;
}

export interface IngestProgress {
  done: number;
  total: number;
  failed: number;
}

export interface IngestFailure {
  city: string;
  date: string;
  data: 'pollen' | 'weather';
  failure: ProviderFailure;
  message: string;
}

export interface IngestSummary {
  /** City-days in the requested window. */
  cityDays: number;
  /** City-days already complete, not fetched. */
  skipped: number;
  /** City-days written (at least one kind of data). */
  written: number;
  hourlyRows: number;
  weatherRows: number;
  /** City-days the provider had no pollen hours for: not stored, asked again next run. */
  empty: number;
  /** Provider fetches made (each may be several HTTP requests). */
  calls: number;
  failures: IngestFailure[];
  /** Providers this run stopped calling, with why: a quota refusal or a spent daily budget. */
  stopped: Record<string, string>;
  seconds: number;
}

/** Runs an ingest and reports what it did; provider failures are collected, not thrown. */
export async function ingest(options: IngestOptions): Promise<IngestSummary> {
  const { store, cities, span, refresh = false, now = Date.now } = options;
  const started = performance.now();
  const days = span.to - span.from + 1;
  const summary: IngestSummary = {
    cityDays: cities.length * days, skipped: 0, written: 0, empty: 0, hourlyRows: 0, weatherRows: 0, calls: 0, failures: [], stopped: {}, seconds: 0,
  };
  let done = 0;
  const progress = (n: number) => {
    done += n;
    options.onProgress?.({ done, total: summary.cityDays, failed: summary.failures.length });
  };

  // Once a provider refuses for quota (or its budget is spent), every later window fails at once.
  const exhausted = new Map<string, ProviderError>();
  const call = async <T>(provider: { id: string }, fetch: () => Promise<T>): Promise<T | ProviderError> => {
    const refused = exhausted.get(provider.id);
    if (refused) return refused;
    summary.calls++;
    try {
      return await fetch();
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (error.failure === 'quota') {
        exhausted.set(provider.id, error);
        summary.stopped[provider.id] = error.message;
      }
      return error;
    }
  };

  const ingestCity = async (city: City) => {
    const stored = refresh ? { pollen: new Set<number>(), weather: new Set<number>() } : store.storedDays(city.slug, span.from, span.to);
    const wanted = (day: number) => ({ pollen: !stored.pollen.has(day), weather: options.weather !== null && !stored.weather.has(day) });
    const maxDays = Math.min(options.pollen.maxDaysPerCall, options.weather?.maxDaysPerCall ?? Infinity);

    for (const window of windows(span, maxDays, (d) => wanted(d).pollen || wanted(d).weather)) {
      if (window.skip) {
        summary.skipped += window.to - window.from + 1;
        progress(window.to - window.from + 1);
        continue;
      }
      const needPollen = range(window).some((d) => wanted(d).pollen);
      const needWeather = range(window).some((d) => wanted(d).weather);
      const [pollen, weather] = await Promise.all([
        needPollen
          ? call(options.pollen, async () => {
              const batch = await options.pollen.pollenHistory(city, window);
              return { timezone: batch.timezone, days: hoursByDay(options.pollen.id, batch) };
            })
          : null,
        needWeather && options.weather ? call(options.weather, async () => weatherByDay(await options.weather!.weatherHistory(city, window))) : null,
      ]);

      for (const day of range(window)) {
        const want = wanted(day);
        const fail = (data: IngestFailure['data'], e: ProviderError) =>
          summary.failures.push({ city: city.slug, date: dayString(day), data, failure: e.failure, message: e.message });
        let pollenWrite: { timezone: string | null; hours: PollenHour[] } | undefined;
        let weatherWrite: WeatherValues | undefined;
        if (want.pollen && pollen !== null) {
          if (pollen instanceof ProviderError) fail('pollen', pollen);
          else if (pollen.days.has(day)) pollenWrite = { timezone: pollen.timezone, hours: pollen.days.get(day)! };
          // A day the provider has no hours for yet is not stored, so a later run asks again.
          else summary.empty++;
        }
        if (want.weather && weather !== null) {
          if (weather instanceof ProviderError) fail('weather', weather);
          else weatherWrite = weather.get(day);
        }

        if (pollenWrite || weatherWrite) {
          const fetchedAt = now();
          store.writeCityDay({
            city: city.slug,
            day,
            pollen: pollenWrite && { source: options.pollen.id, fetchedAt, ...pollenWrite },
            weather: weatherWrite && { source: options.weather!.id, fetchedAt, values: weatherWrite },
          });
          summary.written++;
          summary.hourlyRows += pollenWrite?.hours.length ?? 0;
          summary.weatherRows += weatherWrite ? 1 : 0;
        }
        progress(1);
      }
    }
  };

  await forEachConcurrently(cities, options.concurrency ?? 4, ingestCity);
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}

interface Window extends DaySpan {
  skip: boolean;
}

/** Splits a span into runs of days that need fetching (at most `maxDays` long) and runs that do not. */
export function windows(span: DaySpan, maxDays: number, needed: (day: number) => boolean): Window[] {
  const out: Window[] = [];
  for (let day = span.from; day <= span.to; day++) {
    const skip = !needed(day);
    const last = out.at(-1);
    if (last && last.skip === skip && (skip || day - last.from < maxDays)) last.to = day;
    else out.push({ from: day, to: day, skip });
  }
  return out;
}

const range = (span: DaySpan): number[] => Array.from({ length: span.to - span.from + 1 }, (_, i) => span.from + i);

async function forEachConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
