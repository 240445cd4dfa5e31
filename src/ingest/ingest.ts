/**
 * Pulls provider data into the store by the plan (plan.ts): each request's answer is written in
 * one transaction, and every (city, day, kind) of the run ends with one status.
 */
import type { City } from '../domain/cities.js';
import type { PollenHour } from '../domain/hours.js';
import type { WeatherValues } from '../domain/weather.js';
import { dayString } from '../domain/dates.js';
import { DAY_STATUSES, type DataKind, type DayStatus, type StoredStatus } from '../domain/day-status.js';
import { ProviderError, type DaySpan, type PollenProvider, type ProviderFailure, type WeatherProvider } from '../providers/provider.js';
import type { CityDayWrite, Store } from '../store/store.js';
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
  /** Ask again, and replace, the days another provider wrote (`--replace-provider-days`); else they are kept. */
  replaceOtherProviders?: boolean;
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
  const kinds: KindPlan[] = [kindPlan('pollen', options.pollen, at, store, span, options.replaceOtherProviders === true)];
  if (options.weather) kinds.push(kindPlan('weather', options.weather, at, store, span, options.replaceOtherProviders === true));
  const { tasks, settled } = plan(span, cities, kinds, refresh);
  const run = new Run(options, cities.length * (span.to - span.from + 1) * kinds.length, settled.values());
  await forEachConcurrently(tasks, options.concurrency ?? 4, (task) => run.task(task));
  // Once for the run, not per write: a day's digest reads every city's rows of the day.
  store.refreshDigests();
  run.summary.seconds = (performance.now() - started) / 1000;
  store.runs.record({
    startedAt: at,
    finishedAt: now(),
    pollen: options.pollen.id,
    weather: options.weather?.id ?? null,
    counts: run.summary.counts,
  });
  return run.summary;
}

/** One run's requests: each made, written and settled, or settled without a call once its provider stopped. */
class Run {
  readonly summary: IngestSummary = {
    counts: emptyCounts(),
    failed: [],
    stopped: {},
    calls: 0,
    written: 0,
    hourlyRows: 0,
    weatherRows: 0,
    seconds: 0,
  };
  private done = 0;
  /** Once a provider refuses for quota (or its budget is spent), what is left for it is deferred. */
  private readonly stopped = new Set<string>();

  /** `settled`: the statuses the plan gave without a request. */
  constructor(
    private readonly options: IngestOptions,
    private readonly total: number,
    settled: Iterable<DayStatus>,
  ) {
    for (const status of settled) {
      this.summary.counts[status]++;
      this.done++;
    }
    this.progress();
  }

  private progress(): void {
    this.options.onProgress?.({ done: this.done, total: this.total, failed: this.summary.failed.length });
  }

  /** Counts `n` (city, day, kind) units as ending with `status`. */
  settle(status: DayStatus, n = 1): void {
    this.summary.counts[status] += n;
    this.done += n;
    this.progress();
  }

  /** Makes a request and writes its answer, or settles its days as its failure says. */
  async task(task: Task): Promise<void> {
    const provider = task.kind === 'pollen' ? this.options.pollen : this.options.weather!;
    if (this.stopped.has(provider.id)) {
      this.settle('deferred', task.days.length);
      return;
    }
    this.summary.calls++;
    try {
      this.write(task, await fetchTask(task, this.options));
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      this.failed(task, provider.id, error);
    }
  }

  /** Settles a request's days by its provider's failure. */
  private failed(task: Task, provider: string, error: ProviderError): void {
    const n = task.days.length;
    switch (error.failure) {
      case 'quota':
      case 'throttled':
        if (!this.stopped.has(provider)) {
          this.stopped.add(provider);
          this.summary.stopped[provider] = error.message;
        }
        this.settle('deferred', n);
        break;
      case 'outside_window':
        this.settle('outside_window', n);
        break;
      case 'not_covered': // the provider has no data for this place: the days are empty
        this.write(
          task,
          task.kind === 'pollen' ? { kind: 'pollen', timezone: null, days: new Map() } : { kind: 'weather', days: new Map() },
        );
        break;
      default:
        for (const day of task.days)
          this.summary.failed.push({
            city: task.city.slug,
            date: dayString(day),
            data: task.kind,
            failure: error.failure,
            message: error.message,
          });
        this.settle('failed', n);
    }
  }

  /**
   * Writes a request's answer, its days in one transaction (a killed run leaves each of them whole
   * or absent, and one commit per request instead of per day is most of what writing costs), and
   * settles each day with its status.
   */
  private write(task: Task, fetched: Fetched): void {
    const { store, now = Date.now } = this.options;
    const fetchedAt = now();
    const city = task.city.slug;
    const writes: CityDayWrite[] = task.days.map((day) => {
      if (fetched.kind === 'weather')
        return { city, day, weather: { source: this.options.weather!.id, fetchedAt, values: fetched.days.get(day) ?? {} } };
      // Only the hours asked for are replaced: hours of the day outside them are kept.
      const asked = { from: Math.max(day * 24, task.hours.from), to: Math.min(day * 24 + 24, task.hours.to) };
      const hours = (fetched.days.get(day) ?? []).filter((h) => h.hour >= asked.from && h.hour < asked.to);
      this.summary.hourlyRows += hours.length;
      return { city, day, pollen: { source: this.options.pollen.id, timezone: fetched.timezone, fetchedAt, hours, asked } };
    });
    for (const written of store.writeCityDays(writes)) {
      const status = (fetched.kind === 'pollen' ? written.pollen : written.weather)!;
      if (fetched.kind === 'weather' && status === 'complete') this.summary.weatherRows++;
      this.summary.written++;
      this.settle(status);
    }
  }
}

/**
 * What a run plans for one kind of data. A day another provider wrote is kept as it is (even a
 * young partial one: this provider's hours would be labelled as that one's), unless the run
 * replaces other providers' days, and then it is asked again like a day never stored.
 */
function kindPlan(
  kind: DataKind,
  provider: PollenProvider | WeatherProvider,
  now: number,
  store: Store,
  span: DaySpan,
  replace: boolean,
): KindPlan {
  let last: { city: string; mine: Map<number, StoredStatus>; others: Set<number> } | undefined;
  const of = (city: City) => {
    if (last?.city === city.slug) return last;
    const [mine, others] = [new Map<number, StoredStatus>(), new Set<number>()];
    for (const [day, d] of store[kind].storedDays(city.slug, span.from, span.to)) {
      if (d.source !== provider.id && replace) continue;
      mine.set(day, d.status);
      if (d.source !== provider.id) others.add(day);
    }
    last = { city: city.slug, mine, others };
    return last;
  };
  return {
    kind,
    coverage: provider.coverage(now),
    maxDaysPerCall: provider.maxDaysPerCall,
    stored: (city) => of(city).mine,
    others: (city) => of(city).others,
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
