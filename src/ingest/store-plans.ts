/**
 * What a run plans for each kind of data from what the store holds: which of a city's days it
 * keeps and which it asks again, by the provider that wrote each (plan.ts orders the requests).
 */
import type { City } from '../domain/cities.js';
import type { DataKind, StoredStatus } from '../domain/day-status.js';
import {
  type AnyPollenProvider,
  type Coverage,
  type DailyPollenProvider,
  type DaySpan,
  isDaily,
  RETRY_DAYS,
  type WeatherProvider,
} from '../providers/provider.js';
import type { Store } from '../store/store.js';
import type { KindPlan } from './plan.js';

/**
 * The plan of one pollen provider of a chain. A city-day another provider of the chain wrote is
 * asked again unless it is complete (the first to answer it whole keeps it); one a provider outside
 * the chain wrote is kept, as kindPlan keeps it.
 */
export function pollenPlan(
  provider: AnyPollenProvider,
  chain: readonly AnyPollenProvider[],
  now: number,
  store: Store,
  span: DaySpan,
  replace: boolean,
): KindPlan {
  const ids = new Set(chain.map((p) => p.id));
  const coverage = isDaily(provider) ? dayCoverageOf(provider, now) : provider.coverage(now);
  return kindPlan('pollen', provider, coverage, store, span, replace, (source, status) => ids.has(source) && status !== 'complete');
}

/** A daily provider's days as the hours the planner reads: whole days, asked again while young, as hours are. */
function dayCoverageOf(provider: DailyPollenProvider, now: number): Coverage {
  const { oldestDay, newestDay } = provider.dayCoverage(now);
  const newestHour = (newestDay + 1) * 24;
  return { oldestHour: oldestDay === null ? null : oldestDay * 24, newestHour, retryFromHour: newestHour - RETRY_DAYS * 24 };
}

/**
 * What a run plans for one kind of data. A day another provider wrote is kept as it is (even a
 * young partial one: this provider's hours would be labelled as that one's), unless the run
 * replaces other providers' days, and then it is asked again like a day never stored.
 */
export function kindPlan(
  kind: DataKind,
  provider: AnyPollenProvider | WeatherProvider,
  coverage: Coverage,
  store: Store,
  span: DaySpan,
  replace: boolean,
  askAgain: (source: string, status: StoredStatus) => boolean = () => false,
): KindPlan {
  let last: { city: string; mine: Map<number, StoredStatus>; others: Set<number> } | undefined;
  const of = (city: City) => {
    if (last?.city === city.slug) return last;
    const [mine, others] = [new Map<number, StoredStatus>(), new Set<number>()];
    for (const [day, d] of store[kind].storedDays(city.slug, span.from, span.to)) {
      if (d.source !== provider.id && (replace || askAgain(d.source, d.status))) continue;
      mine.set(day, d.status);
      if (d.source !== provider.id) others.add(day);
    }
    last = { city: city.slug, mine, others };
    return last;
  };
  return {
    kind,
    coverage,
    maxDaysPerCall: provider.maxDaysPerCall,
    stored: (city) => of(city).mine,
    others: (city) => of(city).others,
  };
}
