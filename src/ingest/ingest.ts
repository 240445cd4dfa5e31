/**
 * Pulls provider data into the store by the plan (plan.ts): each request's answer is written one
 * transaction per city-day, and every (city, day, kind) of the run ends with one status.
 */
import type { City } from '../domain/cities.js';
import type { PollenHour } from '../domain/hours.js';
import type { WeatherValues } from '../domain/weather.js';
import { dayString } from '../domain/dates.js';
import { DAY_STATUSES, type DataKind, type DayStatus } from '../domain/status.js';
import { ProviderError, type DaySpan, type PollenProvider, type ProviderFailure, type WeatherProvider } from '../providers/provider.js';
import type { Store } from '../store/store.js';
import { hoursByDay, weatherByDay } from './normalize.js';
import { plan, type KindPlan, type Task } from './plan.js';

export interface IngestOptions {
  store: Store;
  pollen: PollenProvider;
  weather: WeatherProvider | null;
  cities: readonly City[];
  /** Inclusive span of UTC day numbers. */
  span: DaySpan;
  /** Ask again for days already complete (inside the providers' windows). */
  refresh?: boolean;
  /** Requests in flight at once. */
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
  data: DataKind;
  failure: ProviderFailure;
  message: string;
}

export interface IngestSummary {
  /** Every (city, day, kind of data) of the run, by the status it ended with. */
  counts: Record<DayStatus, number>;
  failed: IngestFailure[];
  /** Providers this run stopped calling, with why: a quota refusal or a spent daily budget. */
  stopped: Record<string, string>;
  /** Provider requests made (each may be several HTTP requests). */
  calls: number;
  /** City-days written, and the hourly and weather rows they hold. */
  written: number;
  hourlyRows: number;
  weatherRows: number;
  seconds: number;
}

export const emptyCounts = (): Record<DayStatus, number> =>
  Object.fromEntries(DAY_STATUSES.map((s) => [s, 0])) as Record<DayStatus, number>;

/** Runs an ingest and reports what it did; provider failures are collected, not thrown. */
export async function ingest(options: IngestOptions): Promise<IngestSummary> {
  const { store, cities, span, refresh = false, now = Date.now } = options;
  const started = performance.now();
  const at = now();
  const kinds: KindPlan[] = [kindPlan('pollen', options.pollen, at, store, span)];
  if (options.weather) kinds.push(kindPlan('weather', options.weather, at, store, span));
  const { tasks, settled } = plan(span, cities, kinds, refresh);

  const summary: IngestSummary = {
    counts: emptyCounts(),
    failed: [],
    stopped: {},
    calls: 0,
    written: 0,
    hourlyRows: 0,
    weatherRows: 0,
    seconds: 0,
  };
  const total = cities.length * (span.to - span.from + 1) * kinds.length;
  for (const status of settled.values()) summary.counts[status]++;
  let done = settled.size;
  const progress = () => options.onProgress?.({ done, total, failed: summary.failed.length });
  const settle = (status: DayStatus, n = 1) => {
    summary.counts[status] += n;
    done += n;
    progress();
  };
  progress();

  // Once a provider refuses for quota (or its budget is spent), what is left for it is deferred.
  const stopped = new Map<string, ProviderError>();
  const run = async (task: Task) => {
    const provider = task.kind === 'pollen' ? options.pollen : options.weather!;
    const each = (status: DayStatus) => settle(status, task.days.length);
    if (stopped.has(provider.id)) return each('deferred');
    summary.calls++;
    try {
      write(task, await fetchTask(task, options));
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      switch (error.failure) {
        case 'quota':
        case 'throttled':
          if (!stopped.has(provider.id)) {
            stopped.set(provider.id, error);
            summary.stopped[provider.id] = error.message;
          }
          return each('deferred');
        case 'outside_window':
          return each('outside_window');
        case 'not_covered': // the provider has no data for this place: the days are empty
          return write(
            task,
            task.kind === 'pollen' ? { kind: 'pollen', timezone: null, days: new Map() } : { kind: 'weather', days: new Map() },
          );
        default:
          for (const day of task.days)
            summary.failed.push({
              city: task.city.slug,
              date: dayString(day),
              data: task.kind,
              failure: error.failure,
              message: error.message,
            });
          return each('failed');
      }
    }
  };

  /** Writes each day of a request's answer, one transaction a city-day, and settles it with its status. */
  const write = (task: Task, fetched: Fetched) => {
    const fetchedAt = now();
    for (const day of task.days) {
      let status: DayStatus;
      if (fetched.kind === 'pollen') {
        // Only the hours asked for are replaced: hours of the day outside them are kept.
        const asked = { from: Math.max(day * 24, task.hours.from), to: Math.min(day * 24 + 24, task.hours.to) };
        const hours = (fetched.days.get(day) ?? []).filter((h) => h.hour >= asked.from && h.hour < asked.to);
        status = store.writeCityDay({
          city: task.city.slug,
          day,
          pollen: { source: options.pollen.id, timezone: fetched.timezone, fetchedAt, hours, asked },
        }).pollen!;
        summary.hourlyRows += hours.length;
      } else {
        const values = fetched.days.get(day) ?? {};
        status = store.writeCityDay({ city: task.city.slug, day, weather: { source: options.weather!.id, fetchedAt, values } }).weather!;
        if (status === 'complete') summary.weatherRows++;
      }
      summary.written++;
      settle(status);
    }
  };

  await forEachConcurrently(tasks, options.concurrency ?? 4, run);
  summary.seconds = (performance.now() - started) / 1000;
  store.runs.record({
    startedAt: at,
    finishedAt: now(),
    pollen: options.pollen.id,
    weather: options.weather?.id ?? null,
    counts: summary.counts,
  });
  return summary;
}

function kindPlan(kind: DataKind, provider: PollenProvider | WeatherProvider, now: number, store: Store, span: DaySpan): KindPlan {
  return {
    kind,
    coverage: provider.coverage(now),
    maxDaysPerCall: provider.maxDaysPerCall,
    stored: (city) => store[kind].statuses(city.slug, span.from, span.to),
  };
}

/** One request's answer by UTC day: pollen hours (with the zone the provider gave), or weather values. */
type Fetched =
  | { kind: 'pollen'; timezone: string | null; days: Map<number, PollenHour[]> }
  | { kind: 'weather'; days: Map<number, WeatherValues> };

async function fetchTask(task: Task, options: IngestOptions): Promise<Fetched> {
  if (task.kind === 'pollen') {
    const batch = await options.pollen.pollenHistory(task.city, task.hours);
    return { kind: 'pollen', timezone: batch.timezone, days: hoursByDay(options.pollen.id, batch) };
  }
  return {
    kind: 'weather',
    days: weatherByDay(await options.weather!.weatherHistory(task.city, { from: task.days[0]!, to: task.days.at(-1)! })),
  };
}

/** Runs `work` over the items in order, at most `limit` at a time. */
async function forEachConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
