/**
 * Alerts (docs/decisions.md, "Alerts"): the local days a forecast's hours touch on which a category's
 * worst hour reaches a level. Each alert is one city-day, identified by the city, the date and
 * the rule (level and categories) alone, so a calendar or feed reader that sees it again after a
 * refresh updates it instead of adding a copy.
 */
import { createHash } from 'node:crypto';
import type { City } from './cities.js';
import { DAY_MS, dayString } from './dates.js';
import { dayOffset, groupByDay } from './days.js';
import { type DayHour, type HoursSummary, summarize } from './pollen-rows.js';
import { grade, RISK_LABELS, type AlertLevel, type Graded, type Risk } from './species/risk.js';
import type { Alert } from './schemas.js';

/** How many allergens an alert names. */
export const TOP_SPECIES = 3;

/** What a subscription watches: categories in ALERT_CATEGORIES order, each once. */
export interface AlertRule {
  min: AlertLevel;
  categories: readonly Graded[];
}

export type { Alert } from './schemas.js';
/** A category at or above the rule's level on the day: its worst hourly risk and its highest hourly value. */
export type AlertCategory = Alert['categories'][number];
/** An allergen of the day and its highest hourly value (grains/m³). */
export type TopSpecies = Alert['top_species'][number];

/** A forecast hour as alerts read it. */
export type AlertHour = DayHour & { hour: number };

/**
 * The local dates a city's forecast hours (ascending) touch, each checked against the rule, and
 * the alerts: one per date that reaches it.
 */
export function alertsFor(city: City, hours: readonly AlertHour[], rule: AlertRule): { dates: string[]; alerts: Alert[] } {
  const dates: string[] = [];
  const alerts: Alert[] = [];
  for (const [day, list] of groupByDay('local', city.timezone, hours)) {
    const date = dayString(day);
    dates.push(date);
    const summary = summarize(list);
    const reached = rule.categories
      .map((c) => categoryPeak(c, summary))
      .filter((c): c is AlertCategory => c.risk !== null && atLeast(c.risk, rule.min));
    if (reached.length === 0) continue;
    const top = topSpecies(list);
    alerts.push({
      id: `urn:uuid:${alertUuid(city.slug, date, rule)}`,
      date,
      tz: dayOffset('local', city.timezone, day),
      hours: list.length,
      categories: reached,
      top_species: top,
      summary: summaryOf(city, day, reached, top),
    });
  }
  return { dates, alerts };
}

const atLeast = (risk: Risk, min: AlertLevel): boolean => RISK_LABELS.indexOf(risk) >= RISK_LABELS.indexOf(min);

/** A category's worst hour: by the highest-allergen rule for the three categories, graded on Weed.Ragweed for ragweed (as the map's `risk_ragweed`). */
function categoryPeak(category: Graded, day: HoursSummary): { category: Graded; risk: AlertLevel | null; peak: number | null } {
  const risk = category === 'ragweed' ? grade('ragweed', day.maxima.ragweed) : day.peakRisks[category];
  return { category, risk: risk === 'None' ? null : risk, peak: day.maxima[category] };
}

/** The day's allergens with a value above 0, highest hourly value first (then by name); plain-number groups (`Others`) are not allergens. */
export function topSpecies(hours: readonly DayHour[], count = TOP_SPECIES): TopSpecies[] {
  const best = new Map<string, TopSpecies>();
  for (const h of hours) {
    for (const [category, group] of Object.entries(h.species ?? {})) {
      if (group === null || typeof group !== 'object') continue;
      for (const [name, v] of Object.entries(group)) {
        if (typeof v !== 'number' || v <= 0) continue;
        const key = `${category}\u0000${name}`;
        const seen = best.get(key);
        if (!seen || v > seen.peak) best.set(key, { category, name, peak: v });
      }
    }
  }
  return [...best.values()].sort((a, b) => b.peak - a.peak || a.name.localeCompare(b.name, 'en')).slice(0, count);
}

const LABEL: Readonly<Record<Graded, string>> = {
  tree: 'tree pollen',
  grass: 'grass pollen',
  weed: 'weed pollen',
  ragweed: 'ragweed pollen',
};
const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "High tree pollen (peak 412 grains/m³) in Austin, TX on Sun, Mar 9; most: Oak, Elm." */
function summaryOf(city: City, day: number, reached: readonly AlertCategory[], top: readonly TopSpecies[]): string {
  const parts = reached.map((c) => `${c.risk} ${LABEL[c.category]}${c.peak === null ? '' : ` (peak ${Math.round(c.peak)} grains/m³)`}`);
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  const date = DATE_FORMAT.format(day * DAY_MS);
  const species = top.length === 0 ? '' : `; most: ${top.map((s) => s.name).join(', ')}`;
  return `${list} in ${city.name}, ${city.state} on ${date}${species}.`;
}

/**
 * The readable name an alert's UUID is made from: `austin:2025-03-09:High:tree,grass`. A
 * subscription's later answers name the same day the same way, whatever the day's values.
 */
export const alertName = (city: string, date: string, rule: AlertRule): string =>
  `${city}:${date}:${rule.min}:${rule.categories.join(',')}`;

/** A subscription's own name, for a feed's id. */
export const feedName = (city: string, rule: AlertRule): string => `${city}:${rule.min}:${rule.categories.join(',')}`;

/** The namespace of this API's name-based UUIDs (drawn once at random): changing it changes every alert id. */
export const ALERT_NAMESPACE = 'dca5482b-496f-4dce-88e6-6d97e0b38994';
const NAMESPACE = Buffer.from(ALERT_NAMESPACE.replaceAll('-', ''), 'hex');

/** RFC 9562 §5.5 version 5 UUID: SHA-1 of the namespace and the name, with the version and variant bits set. */
export function nameUuid(name: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const alertUuid = (city: string, date: string, rule: AlertRule): string => nameUuid(alertName(city, date, rule));
