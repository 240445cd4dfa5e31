/**
 * The VTIMEZONE component (RFC 5545, section 3.6.5) of a city's zone, written from the zone's
 * offsets as the runtime's time-zone data gives them. A calendar must hold at least one component
 * (section 3.6: `icalbody = calprops component`), and one with no alert would hold none; the
 * zone, in which the all-day events are the city's dates, is the component every calendar holds.
 */
import { DAY_MS } from '../../domain/dates.js';
import { offsetMinutes } from '../../domain/day-cuts.js';

const MINUTE_MS = 60_000;

/** `-0500`, `+0530`: an offset as a UTC-OFFSET value writes it. */
const utcOffsetText = (minutes: number): string => {
  const m = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(m / 60)).padStart(2, '0')}${String(m % 60).padStart(2, '0')}`;
};

/** `20260308T020000`: an instant as the local time at `offset`, as an observance's DTSTART is written. */
const localTime = (ms: number, offset: number): string => new Date(ms + offset * MINUTE_MS).toISOString().replace(/[-:]/g, '').slice(0, 15);

/** How far apart the offset is probed: a zone's offset changes at most once a week (twice a year, in practice). */
const PROBE_MS = 7 * DAY_MS;

/** The instants in [from, to) at which the zone's offset changes, to the minute. */
export function offsetChanges(zone: string, from: number, to: number): number[] {
  const changes: number[] = [];
  for (let week = from; week < to; week += PROBE_MS) {
    let [before, after] = [week, Math.min(week + PROBE_MS, to)];
    if (offsetMinutes(zone, before) === offsetMinutes(zone, after)) continue;
    // The offset differs at the two ends: halve the span, by whole minutes, to the first minute of the new one.
    while (after - before > MINUTE_MS) {
      const middle = before + Math.floor((after - before) / MINUTE_MS / 2) * MINUTE_MS;
      if (offsetMinutes(zone, middle) === offsetMinutes(zone, before)) before = middle;
      else after = middle;
    }
    changes.push(after);
  }
  return changes;
}

/**
 * The zone's VTIMEZONE over the calendar years `year` and `year + 1`: its offset on 1 January,
 * then each change. An observance at a higher offset than the lowest of the span is DAYLIGHT.
 */
export function vtimezone(zone: string, year: number): string {
  const key = `${zone} ${year}`;
  let text = written.get(key);
  if (text === undefined) written.set(key, (text = write(zone, year)));
  return text;
}

// By zone and year: a city's calendar asks for the same one at every refresh. The keys are the
// served cities' zones and the years of their forecasts, a few dozen.
const written = new Map<string, string>();

function write(zone: string, year: number): string {
  // From local midnight on 1 January.
  const from = Date.UTC(year, 0, 1) - offsetMinutes(zone, Date.UTC(year, 0, 1)) * MINUTE_MS;
  const starts = [from, ...offsetChanges(zone, from, Date.UTC(year + 2, 0, 1))];
  const offsets = starts.map((ms) => offsetMinutes(zone, ms));
  const lowest = Math.min(...offsets);
  const observances = starts.flatMap((ms, i) => {
    const kind = offsets[i]! > lowest ? 'DAYLIGHT' : 'STANDARD';
    const previous = offsets[Math.max(0, i - 1)]!;
    return [
      `BEGIN:${kind}`,
      `DTSTART:${localTime(ms, previous)}`,
      `TZOFFSETFROM:${utcOffsetText(previous)}`,
      `TZOFFSETTO:${utcOffsetText(offsets[i]!)}`,
      `END:${kind}`,
    ];
  });
  return [`BEGIN:VTIMEZONE`, `TZID:${zone}`, ...observances, 'END:VTIMEZONE', ''].join('\r\n');
}
