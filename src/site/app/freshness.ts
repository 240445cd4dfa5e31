/** The freshness line: how old the newest data is, from /api/health (which answers 503 when stale or simulated). */
import { instantInWords } from '../../domain/dates.js';
import { capitalized } from '../../domain/words.js';

export interface Health {
  status: 'ok' | 'stale' | 'simulated';
  latestHour: string | null;
  dataAgeHours: number | null;
  provider: string | null;
}

/** One sentence a person reads at a glance; `stale` says so plainly. */
export function freshnessText(h: Health): string {
  if (h.latestHour === null || h.dataAgeHours === null) return 'No data yet.';
  const age = h.dataAgeHours < 48 ? `${Math.round(h.dataAgeHours)} hours ago` : `${Math.round(h.dataAgeHours / 24)} days ago`;
  const source = h.provider === 'sample' ? 'simulated sample data' : `data from ${h.provider ?? 'the provider'}`;
  const sentence = `${source} through ${instantInWords(h.latestHour, undefined, true)} (${age}).`;
  return h.status === 'stale' ? `Stale: ${sentence}` : capitalized(sentence);
}

/** Reads /api/health, whose body is the same JSON whether fresh (200), stale or simulated (503). */
export async function loadHealth(): Promise<Health> {
  const res = await fetch('/api/health', { headers: { accept: 'application/json' } });
  return (await res.json()) as Health;
}
