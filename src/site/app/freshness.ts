/** The freshness line: how old the newest data is, from /api/health (which answers 503 when stale). */

export interface Health {
  status: 'ok' | 'stale';
  latestHour: string | null;
  dataAgeHours: number | null;
  provider: string | null;
}

/** The newest hour as the reader reads a time: in their own zone, in words ("Thu, Apr 10, 2025, 6:00 PM CDT"). */
export const readerTime = (iso: string): string =>
  new Date(iso).toLocaleString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  });

/** One sentence a person reads at a glance; `stale` says so plainly. */
export function freshnessText(h: Health): string {
  if (h.latestHour === null || h.dataAgeHours === null) return 'No data yet.';
  const age = h.dataAgeHours < 48 ? `${Math.round(h.dataAgeHours)} hours ago` : `${Math.round(h.dataAgeHours / 24)} days ago`;
  const source = h.provider === 'sample' ? 'simulated sample data' : `data from ${h.provider ?? 'the provider'}`;
  const sentence = `${source} through ${readerTime(h.latestHour)} (${age}).`;
  return h.status === 'stale' ? `Stale: ${sentence}` : `${sentence[0]!.toUpperCase()}${sentence.slice(1)}`;
}

/** Reads /api/health, whose body is the same JSON whether fresh (200) or stale (503). */
export async function loadHealth(): Promise<Health> {
  const res = await fetch('/api/health', { headers: { accept: 'application/json' } });
  return (await res.json()) as Health;
}
