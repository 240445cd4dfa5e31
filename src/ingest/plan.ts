/**
 * The ingest plan: for every (city, day, kind of data) of a run, either a status it already has
 * (complete, or partial and empty days past their retry horizon, which are final; or outside the
 * provider's window) or a place in a request. Requests cover runs of consecutive days of one city,
 * clipped to the provider's window, and are ordered newest first across all cities, so a quota
 * that runs out mid-run has spent itself on every city's newest days before any older one.
 */
import type { City } from '../domain/cities.js';
import type { DataKind, DayStatus, StoredStatus } from '../domain/day-status.js';
import type { Coverage, DaySpan, HourSpan } from '../providers/provider.js';

/** One request of the plan: consecutive days of one city and kind, and (pollen) the hours asked. */
export interface Task {
  kind: DataKind;
  city: City;
  /** Ascending and consecutive. */
  days: number[];
  hours: HourSpan;
}

export interface KindPlan {
  kind: DataKind;
  coverage: Coverage;
  maxDaysPerCall: number;
  /** Stored statuses per city slug and day. */
  stored: (city: City) => Map<number, StoredStatus>;
  /** Of those, the days another provider wrote: they keep their status and are never asked of this one. */
  others?: (city: City) => ReadonlySet<number>;
}

export interface Plan {
  tasks: Task[];
  /** Units settled without a request, keyed `kind|city|day`. */
  settled: Map<string, DayStatus>;
}

export const unitKey = (kind: DataKind, city: string, day: number): string => `${kind}|${city}|${day}`;

/**
 * What to do with a day: keep its stored status, call it outside the window, or ask for these
 * hours. Pollen may ask for part of a day (the hours inside the window); weather only for whole days.
 */
export function decide(day: number, stored: StoredStatus | undefined, kind: DataKind, c: Coverage, refresh: boolean): DayStatus | HourSpan {
  const [first, end] = [day * 24, day * 24 + 24];
  const from = Math.max(first, c.oldestHour ?? first);
  const to = Math.min(end, c.newestHour);
  const inside = kind === 'pollen' ? from < to : from === first && to === end;
  if (stored !== undefined && !refresh) {
    if (stored === 'complete') return 'complete';
    // A partial or empty day may still fill in while it is young; after that it is final.
    if (end <= c.retryFromHour || !inside) return stored;
  }
  return inside ? { from, to } : (stored ?? 'outside_window');
}

/** The plan of a run over `span` for `cities`, one kind of data at a time. */
export function plan(span: DaySpan, cities: readonly City[], kinds: readonly KindPlan[], refresh: boolean): Plan {
  const settled = new Map<string, DayStatus>();
  const tasks: Task[] = [];
  for (const k of kinds) {
    for (const city of cities) {
      const stored = k.stored(city);
      const others = k.others?.(city);
      let run: Task | undefined;
      // Newest first, so a run's first request holds the city's newest days.
      for (let day = span.to; day >= span.from; day--) {
        const d = others?.has(day) ? stored.get(day)! : decide(day, stored.get(day), k.kind, k.coverage, refresh);
        if (typeof d === 'string') {
          settled.set(unitKey(k.kind, city.slug, day), d);
          run = undefined;
          continue;
        }
        if (run && run.days.length < k.maxDaysPerCall && run.days[0] === day + 1 && run.hours.from === d.to) {
          run.days.unshift(day);
          run.hours.from = d.from;
        } else {
          run = { kind: k.kind, city, days: [day], hours: { ...d } };
          tasks.push(run);
        }
      }
    }
  }
  // Newest first across cities: every city's newest request before any city's older one.
  const order = new Map(cities.map((c, i) => [c.slug, i]));
  tasks.sort(
    (a, b) =>
      b.days.at(-1)! - a.days.at(-1)! ||
      (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) ||
      order.get(a.city.slug)! - order.get(b.city.slug)!,
  );
  return { tasks, settled };
}
