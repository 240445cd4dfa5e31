/**
 * The build's part in keeping every forecast (docs/data.md, "Forecast skill"; docs/deploying.md,
 * "Call budgets"), after ingest:
 *
 * 1. the forecasts the forecast function fetched since the last build are kept, read where it
 *    kept them (forecast/kept.ts): no provider call;
 * 2. one forecast per city is taken, unless one issued in the last 6 hours (the forecast cache's
 *    limit) is kept already: a planned part of the provider's daily budget, counted as ingest;
 * 3. a provider that can issue its past forecasts again (the sample) has those of the served days
 *    made again instead, two a day (06:30 and 18:30 UTC: the build's, and a fetch in the evening,
 *    which reaches the second day after), so that a new deployment has scores at once: of its own
 *    days only (in another provider's store, the days a run replaced with the sample's);
 * 4. the forecasts issued before the served days are forgotten;
 * 5. each city's outlook of the day after its latest data day is issued and kept, with the served
 *    days' made again where the provider can (keep-outlooks.ts).
 */
import type { City } from '../domain/cities.js';
import { DAY_MS, firstServedDay, HOUR_MS } from '../domain/dates.js';
import { normalizeHour } from '../domain/hours.js';
import { SIMULATED_PROVIDER as SAMPLE_ID } from '../domain/provenance.js';
import { type KeptDay, targetDays } from '../domain/verification/target-days.js';
import type { FetchedForecasts } from '../forecast/kept.js';
import { dailyForecastDays } from '../forecast/kept-days.js';
import { CACHE_LIMIT_MS } from '../forecast/service.js';
import {
  type AnyPollenProvider,
  hasPastForecasts,
  isDaily,
  type PastForecasts,
  type PollenBatch,
  type PollenProvider,
  ProviderError,
} from '../providers/provider.js';
import { settingsOf } from '../settings.js';
import type { IssuedForecast } from '../store/issued-forecasts.js';
import type { Store } from '../store/store.js';
import { functionFetches } from './function-fetches.js';
import { formatOutlooks, keepOutlooks, type OutlookSummary } from './keep-outlooks.js';

/** Hours of the forecast the build takes, and of the past forecasts made again: the 48 of a provider's forecast. */
const FORECAST_HOURS = 48;
/** Leads a past forecast made again reaches: its issue day and the two after it. */
const MADE_AGAIN_LEADS = FORECAST_HOURS / 24 + 1;
/** When, in each UTC day, the past forecasts made again were issued (hours). */
export const MADE_AGAIN_AT: readonly number[] = [6.5, 18.5];

export interface KeepOptions {
  store: Store;
  /** The pollen providers of the chain: each one's forecasts are kept, to be scored side by side. */
  providers: readonly AnyPollenProvider[];
  cities: readonly City[];
  now: number;
  /** Days the served store holds (SERVE_DAYS): forecasts issued before them are forgotten. */
  serveDays: number;
  /** What the forecast function fetched since the last build, where there is one to read. */
  fetched?: FetchedForecasts;
  /** The providers to take a forecast per city from: not those this run stopped calling (a quota refusal, a spent budget); default all. */
  take?: ReadonlySet<string>;
}

export interface KeepSummary {
  /** Forecasts kept from the forecast function's fetches, and those of its fetches forgotten where they were (the store held them already). */
  fromFunction: number;
  forgotten: number;
  /** Forecasts the build took from the provider, and made again. */
  taken: number;
  madeAgain: number;
  /** Forecasts forgotten: issued before the served days. */
  dropped: number;
  /** Why the build could not take a city's forecast (the rest of the run goes on). */
  failed: string[];
  /** The outlooks kept. */
  outlooks: OutlookSummary;
}

/** Keeps the forecasts of a build: the function's fetches, one per city (or the past made again), minus those too old. */
export async function keepForecasts(o: KeepOptions): Promise<KeepSummary> {
  const summary: KeepSummary = {
    fromFunction: 0,
    forgotten: 0,
    taken: 0,
    madeAgain: 0,
    dropped: 0,
    failed: [],
    outlooks: { issued: 0, madeAgain: 0, dropped: 0, seconds: 0 },
  };
  const slugs = new Set(o.cities.map((c) => c.slug));
  if (o.fetched) await importFetched(o, slugs, summary);
  for (const provider of o.providers) {
    if (!isDaily(provider) && hasPastForecasts(provider)) makeAgain(o, provider, summary);
    else if (o.take?.has(provider.id) ?? true) await takeOne(o, provider, summary);
  }
  const newest = o.store.pollen.latestDay();
  if (newest !== null) summary.dropped = o.store.issued.dropBefore(firstServedDay(newest, o.serveDays) * DAY_MS);
  const past = o.providers.find(hasPastForecasts);
  summary.outlooks = keepOutlooks({ store: o.store, cities: o.cities, serveDays: o.serveDays, madeAgainBy: past ? past.id : null });
  return summary;
}

/**
 * The function's fetches of the cities of the run, from its provider: each kept; one the store
 * held before this run began is forgotten where it was (the store that holds it was saved by the
 * build that kept it), so that nothing is forgotten before a build has saved it.
 */
async function importFetched(o: KeepOptions, slugs: ReadonlySet<string>, summary: KeepSummary): Promise<void> {
  const { store } = o;
  const ids = new Set(o.providers.map((p) => p.id));
  for await (const f of o.fetched!()) {
    if (!slugs.has(f.city)) continue;
    const forecast = await f.read();
    if (forecast && store.issued.has(f.city, f.fetchedAt, forecast.source)) {
      await f.forget();
      summary.forgotten++;
      continue;
    }
    // A provider's outside the chain is no forecast of this deployment. A simulated one (a deploy
    // on the sample, sharing the site's Blobs) is forgotten by a real provider's build, since none
    // of its own ever would; a real provider's fetches are never forgotten by another's build: a
    // sample preview's build must not take forecasts the site's next build has still to keep.
    if (forecast === undefined || !ids.has(forecast.source)) {
      if (forecast?.source === SAMPLE_ID && !ids.has(SAMPLE_ID)) await f.forget();
      continue;
    }
    if (store.issued.keep(f.city, forecast)) summary.fromFunction++;
  }
}

/** One forecast per city from the provider, unless the store keeps one issued in the last 6 hours; a quota refusal stops the rest. */
async function takeOne(o: KeepOptions, provider: AnyPollenProvider, summary: KeepSummary): Promise<void> {
  const { store, now } = o;
  for (const city of o.cities) {
    const latest = store.issued.latestIssued(city.slug, provider.id);
    if (latest !== null && now - latest < CACHE_LIMIT_MS) continue;
    let days: KeptDay[];
    try {
      days = isDaily(provider)
        ? dailyForecastDays(provider, city, now, await provider.pollenForecastDays(city, now, provider.forecastDays))
        : daysOf(now, await provider.pollenForecast(city, now));
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      summary.failed.push(`${city.slug}: ${error.message}`);
      if (error.failure === 'quota' || error.failure === 'throttled') break;
      continue;
    }
    if (days.length > 0 && store.issued.keep(city.slug, { issuedAt: now, source: provider.id, origin: 'build', days })) summary.taken++;
  }
}

/** The UTC days a provider's forecast issued at `issuedAt` covers enough. */
function daysOf(issuedAt: number, batch: PollenBatch): KeptDay[] {
  const hours = batch.hours.filter((h) => Number.isFinite(h.time)).map((h) => ({ ...normalizeHour(h), timezone: batch.timezone }));
  return targetDays({ issuedAt, hours: hours.sort((a, b) => a.hour - b.hour) }, 'UTC', 'UTC');
}

/**
 * The past forecasts of the served days up to now (or the day after the last stored day), made again where none is kept: from the
 * stored daily rows where every day they reach is stored (the cheap way), else hour by hour.
 * Only of the provider's own days: in a store of another provider, the days a run replaced with
 * its (`--replace-provider-days`), each forecast keeping only those of the days it reaches.
 * A city's are kept in one transaction.
 */
function makeAgain(o: KeepOptions, provider: PollenProvider & PastForecasts, summary: KeepSummary): void {
  const { store, now } = o;
  const latest = store.pollen.latestDay();
  if (latest === null) return;
  const first = firstServedDay(latest, o.serveDays);
  // Up to the day after the last stored one: later forecasts reach no stored day, and are made when
  // their days are stored (a store whose days end long before now would else have every forecast
  // since made hour by hour).
  const last = Math.min(Math.floor(now / DAY_MS), latest + 1);
  for (const city of o.cities) {
    const values = store.values.span(city.slug, 'UTC', first, latest);
    const own = ownDays(store.pollen.storedDays(city.slug, first, latest), provider.id, first, last + MADE_AGAIN_LEADS);
    const past = provider.pastForecaster(city, (day) => values.get(day));
    const kept = new Set(store.issued.issuedSince(city.slug, first * DAY_MS));
    const made: IssuedForecast[] = [];
    for (let day = first; day <= last; day++) {
      // A forecast issued on `day` reaches the days to MADE_AGAIN_LEADS - 1 after it: made only where one of them is the provider's.
      if (!Array.from({ length: MADE_AGAIN_LEADS }, (_, lead) => own.has(day + lead)).some(Boolean)) continue;
      for (const hour of MADE_AGAIN_AT) {
        const issuedAt = day * DAY_MS + hour * HOUR_MS;
        if (issuedAt > now || kept.has(issuedAt)) continue;
        // Its last day is stored whole: made from the daily rows. Else from the hours (the recent days).
        const reached =
          Math.floor((issuedAt + FORECAST_HOURS * HOUR_MS) / DAY_MS) <= latest
            ? past.issuedDays(issuedAt, FORECAST_HOURS)
            : daysOf(issuedAt, provider.pastForecastHours(city, issuedAt, FORECAST_HOURS));
        const days = reached.filter((d) => own.has(d.day));
        if (days.length > 0) made.push({ issuedAt, source: provider.id, origin: 'made again', days });
      }
    }
    summary.madeAgain += store.issued.keepAll(city.slug, made);
  }
}

/**
 * The days from `from` to `to` that are `provider`'s: a stored day its own, a day not stored
 * (before the first, between, after the last) that of the stored day before it, or of the first.
 */
function ownDays(stored: ReadonlyMap<number, { source: string }>, provider: string, from: number, to: number): Set<number> {
  const own = new Set<number>();
  const held = [...stored].sort(([a], [b]) => a - b);
  if (held.length === 0) return own;
  let k = 0;
  for (let day = from; day <= to; day++) {
    while (k + 1 < held.length && held[k + 1]![0] <= day) k++;
    if (held[k]![1].source === provider) own.add(day);
  }
  return own;
}

/** Keeps the forecasts of a build, with the forecast function's fetches from where this environment has them (kept.ts). */
export async function keepWithFetches(
  store: Store,
  providers: readonly AnyPollenProvider[],
  cities: readonly City[],
  now: number,
  db: string,
  env: NodeJS.ProcessEnv,
  take?: ReadonlySet<string>,
): Promise<KeepSummary> {
  const source = functionFetches(db, env);
  try {
    return await keepForecasts({ store, providers, cities, now, serveDays: settingsOf(env).SERVE_DAYS, fetched: source?.fetched, take });
  } finally {
    source?.close();
  }
}

/** What a build kept, in a line. */
export function formatKept(k: KeepSummary): string {
  const parts = [`${k.fromFunction} fetched by the forecast function`, `${k.taken} taken from the provider`, `${k.madeAgain} made again`];
  const failed =
    k.failed.length === 0
      ? ''
      : `; could not take ${k.failed.length}: ${k.failed.slice(0, 3).join('; ')}${k.failed.length > 3 ? '; ...' : ''}`;
  return `kept ${k.fromFunction + k.taken + k.madeAgain} forecasts (${parts.join(', ')}); forgot ${k.dropped} issued before the served days${failed}; ${formatOutlooks(k.outlooks)}`;
}
