/** Hourly provider samples folded into UTC-day values. */
import { dayOf } from '../domain/dates.js';

/** Means of each named series per UTC day, skipping missing samples. */
export function dailyMeans<K extends string>(
  samples: ReadonlyArray<{ time: number; values: Partial<Record<K, unknown>> }>,
  keys: readonly K[],
): Map<number, Partial<Record<K, number>>> {
  const acc = new Map<number, Map<K, { sum: number; n: number }>>();
  for (const s of samples) {
    const day = dayOf(s.time);
    let perKey = acc.get(day);
    if (!perKey) acc.set(day, (perKey = new Map()));
    for (const k of keys) {
      const v = s.values[k];
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      const a = perKey.get(k) ?? { sum: 0, n: 0 };
      a.sum += v;
      a.n++;
      perKey.set(k, a);
    }
  }
  return new Map(
    [...acc].map(([day, perKey]) => [
      day,
      Object.fromEntries([...perKey].map(([k, a]) => [k, Math.round((a.sum / a.n) * 10) / 10])) as Partial<Record<K, number>>,
    ]),
  );
}
