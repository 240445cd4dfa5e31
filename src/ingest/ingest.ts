/**
 * Pulls provider data into the store by the plan (plan.ts): each request's answer is written in
 * one transaction, and every (city, day, kind) of the run ends with one status.
 */
import type { City } from '../domain/cities.js';
import { dayString } from '../domain/dates.js';
import { DAY_STATUSES, type DataKind, type DayStatus } from '../domain/day-status.js';
import {
  type AnyPollenProvider,
  type DaySpan,
  isDaily,
  ProviderError,
  type ProviderFailure,
  type WeatherProvider,
} from '../providers/provider.js';
import type { DailyWrite } from '../store/pollen-days.js';
import type { CityDayWrite, Store } from '../store/store.js';
import { type Fetched, fetchTask } from './fetch-task.js';
import { type KindPlan, plan, type Task, unitKey } from './plan.js';
import { kindPlan, pollenPlan } from './store-plans.js';

export interface IngestOptions {
  store: Store;
  /**
   * The pollen provider, or a chain of them in order of preference: each city-day comes from the
   * first that answers it whole; what one leaves (a quota, a failure, a day missing) goes to the next.
   */
  pollen: AnyPollenProvider | readonly AnyPollenProvider[];
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
  /** Per pollen provider of the chain: the city-days it gave (complete or partial) and the requests it cost. */
  providers: Record<string, { cityDays: number; calls: number }>;
  /** City-days written, and the hourly and weather rows they hold. */
  written: number;
  hourlyRows: number;
  /** Days a provider that gives days gave as one value each. */
  dailyValues: number;
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
  const chain = chainOf(options.pollen);
  const replace = options.replaceOtherProviders === true;
  const run = new Run(options, cities.length * (span.to - span.from + 1) * (options.weather ? 2 : 1));
  // Provider by provider, in the chain's order (weather with the first): each plan reads what the
  // ones before it wrote, so a city-day they left unanswered is asked of the next.
  for (const [i, provider] of chain.entries()) {
    const kinds: KindPlan[] = [pollenPlan(provider, chain, at, store, span, replace)];
    if (i === 0 && options.weather) kinds.push(kindPlan('weather', options.weather, options.weather.coverage(at), store, span, replace));
    const { tasks, settled } = plan(span, cities, kinds, refresh);
    for (const [key, status] of settled) run.settle(key, status);
    run.summary.providers[provider.id] ??= { cityDays: 0, calls: 0 };
    await forEachConcurrently(tasks, options.concurrency ?? 4, (task) =>
      run.task(task, task.kind === 'pollen' ? provider : options.weather!),
    );
  }
  run.finish();
  // Once for the run, not per write: a day's digest reads every city's rows of the day.
  store.refreshDigests();
  run.summary.seconds = (performance.now() - started) / 1000;
  store.runs.record({
    startedAt: at,
    finishedAt: now(),
    pollen: chain.map((p) => p.id).join(','),
    weather: options.weather?.id ?? null,
    counts: run.summary.counts,
  });
  return run.summary;
}

/** The chain of an ingest's pollen option. */
const chainOf = (pollen: IngestOptions['pollen']): readonly AnyPollenProvider[] =>
  Array.isArray(pollen) ? pollen : [pollen as AnyPollenProvider];

/**
 * One run's requests: each made, written and settled, or settled without a call once its provider
 * stopped. Every (city, day, kind) ends with the status of the last provider that took it up.
 */
class Run {
  readonly summary: IngestSummary = {
    counts: emptyCounts(),
    failed: [],
    stopped: {},
    calls: 0,
    providers: {},
    written: 0,
    hourlyRows: 0,
    dailyValues: 0,
    weatherRows: 0,
    seconds: 0,
  };
  /** Each unit's status so far, and the failure and provider of those that have one. */
  private readonly statuses = new Map<string, DayStatus>();
  private readonly failures = new Map<string, IngestFailure>();
  private readonly givenBy = new Map<string, string>();
  /** Once a provider refuses for quota (or its budget is spent), what is left for it is deferred. */
  private readonly stopped = new Set<string>();

  constructor(
    private readonly options: IngestOptions,
    private readonly total: number,
  ) {
    this.progress();
  }

  private progress(): void {
    this.options.onProgress?.({ done: this.statuses.size, total: this.total, failed: this.failures.size });
  }

  /** A unit ends, for now, with `status` (a later provider of the chain may take it up again). */
  settle(key: string, status: DayStatus, failure?: IngestFailure, provider?: string): void {
    this.statuses.set(key, status);
    if (failure) this.failures.set(key, failure);
    else this.failures.delete(key);
    if (provider !== undefined && (status === 'complete' || status === 'partial')) this.givenBy.set(key, provider);
    else if (status !== 'complete' && status !== 'partial') this.givenBy.delete(key);
    this.progress();
  }

  /** The counts, failures and each provider's city-days, from every unit's last status. */
  finish(): void {
    for (const status of this.statuses.values()) this.summary.counts[status]++;
    this.summary.failed = [...this.failures.values()];
    for (const provider of this.givenBy.values()) {
      const p = (this.summary.providers[provider] ??= { cityDays: 0, calls: 0 });
      p.cityDays++;
    }
  }

  private keys(task: Task): string[] {
    return task.days.map((day) => unitKey(task.kind, task.city.slug, day));
  }

  /** Makes a request and writes its answer, or settles its days as its failure says. */
  async task(task: Task, provider: AnyPollenProvider | WeatherProvider): Promise<void> {
    if (this.stopped.has(provider.id)) {
      for (const key of this.keys(task)) this.settle(key, 'deferred');
      return;
    }
    this.summary.calls++;
    if (task.kind === 'pollen') this.summary.providers[provider.id]!.calls++;
    try {
      this.write(task, provider.id, await fetchTask(task, provider));
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      this.failed(task, provider, error);
    }
  }

  /** Settles a request's days by its provider's failure. */
  private failed(task: Task, provider: AnyPollenProvider | WeatherProvider, error: ProviderError): void {
    switch (error.failure) {
      case 'quota':
      case 'throttled':
        if (!this.stopped.has(provider.id)) {
          this.stopped.add(provider.id);
          this.summary.stopped[provider.id] = error.message;
        }
        for (const key of this.keys(task)) this.settle(key, 'deferred');
        break;
      case 'outside_window':
        for (const key of this.keys(task)) this.settle(key, 'outside_window');
        break;
      case 'not_covered': // the provider has no data for this place: the days are empty
        this.write(
          task,
          provider.id,
          task.kind === 'weather'
            ? { kind: 'weather', days: new Map() }
            : isDaily(provider as AnyPollenProvider)
              ? { kind: 'pollenDaily', timezone: null, days: new Map() }
              : { kind: 'pollen', timezone: null, days: new Map() },
        );
        break;
      default:
        for (const [i, key] of this.keys(task).entries())
          this.settle(key, 'failed', {
            city: task.city.slug,
            date: dayString(task.days[i]!),
            data: task.kind,
            failure: error.failure,
            message: error.message,
          });
    }
  }

  /**
   * Writes a request's answer, its days in one transaction (a killed run leaves each of them whole
   * or absent, and one commit per request instead of per day is most of what writing costs), and
   * settles each day with its status. A day another provider of the chain holds data for is
   * replaced only by a whole day (unless the run replaces other providers' days).
   */
  private write(task: Task, provider: string, fetched: Fetched): void {
    const { store, now = Date.now } = this.options;
    const fetchedAt = now();
    const city = task.city.slug;
    const held =
      fetched.kind === 'weather' || this.options.replaceOtherProviders
        ? undefined
        : store.pollen.storedDays(city, task.days[0]!, task.days.at(-1)!);
    const writes: CityDayWrite[] = [];
    for (const day of task.days) {
      const key = unitKey(task.kind, city, day);
      if (fetched.kind === 'weather') {
        writes.push({ city, day, weather: { source: provider, fetchedAt, values: fetched.days.get(day) ?? {} } });
        continue;
      }
      const before = held?.get(day);
      const keeps = before !== undefined && before.source !== provider && before.status !== 'empty';
      if (fetched.kind === 'pollenDaily') {
        const given = fetched.days.get(day);
        if (keeps && given === undefined) {
          this.settle(key, before.status);
          continue;
        }
        this.summary.dailyValues += given ? 1 : 0;
        const pollenDaily: DailyWrite = {
          source: provider,
          timezone: fetched.timezone,
          fetchedAt,
          value: given?.value ?? null,
          levels: given?.levels ?? null,
        };
        writes.push({ city, day, pollenDaily });
        continue;
      }
      // Only the hours asked for are replaced: hours of the day outside them are kept.
      const asked = { from: Math.max(day * 24, task.hours.from), to: Math.min(day * 24 + 24, task.hours.to) };
      const hours = (fetched.days.get(day) ?? []).filter((h) => h.hour >= asked.from && h.hour < asked.to);
      if (keeps && hours.length < 24) {
        this.settle(key, before.status);
        continue;
      }
      this.summary.hourlyRows += hours.length;
      writes.push({ city, day, pollen: { source: provider, timezone: fetched.timezone, fetchedAt, hours, asked } });
    }
    const results = writes.length === 0 ? [] : store.writeCityDays(writes);
    for (const [i, written] of results.entries()) {
      const w = writes[i]!;
      const status = (fetched.kind === 'weather' ? written.weather : written.pollen)!;
      if (fetched.kind === 'weather' && status === 'complete') this.summary.weatherRows++;
      this.summary.written++;
      this.settle(unitKey(task.kind, city, w.day), status, undefined, task.kind === 'pollen' ? provider : undefined);
    }
  }
}

/** Runs `work` over the items in order, at most `limit` at a time. */
async function forEachConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
