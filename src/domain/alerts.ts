/**
 * Alerts (docs/decisions.md, "Alerts"): the local days a forecast's hours touch on which a category's
 * worst hour reaches a level. Each alert is one city-day, identified by the city, the date and
 * the rule (level and categories) alone, so a calendar or feed reader that sees it again after a
 * refresh updates it instead of adding a copy.
 */
import { createHash } from 'node:crypto';
import type { City } from './cities.js';
import { dateInWords, dayString } from './dates.js';
import { dayOffset, groupByDay } from './day-cuts.js';
import { type DayHour, type HoursSummary, summarize } from './pollen-rows.js';
import type { Alert } from './schemas.js';
import { type Allergen, allergenRisk, onRange } from './species/allergens.js';
import { type AlertLevel, type Graded, grade, RISK_LABELS, type Risk, SPECIES_KEY } from './species/risk.js';
import { listed } from './words.js';

/** How many allergens an alert names. */
export const TOP_SPECIES = 3;

/**
 * What a subscription watches: categories in ALERT_CATEGORIES order, each once, and allergens
 * (single plants, each graded on its category's NAB range) in the served order; none by default.
 */
export interface AlertRule {
  min: AlertLevel;
  categories: readonly Graded[];
  species?: readonly Allergen[];
}

export type { Alert } from './schemas.js';
/** A category at or above the rule's level on the day: its worst hourly risk and its highest hourly value. */
export type AlertCategory = Alert['categories'][number];
/** A watched allergen at or above the rule's level on the day: its worst hourly risk on its category's range, and its highest hourly value. */
export type AlertSpecies = Alert['species'][number];
/** An allergen of the day and its highest hourly value (grains/m³). */
export type TopSpecies = Alert['top_species'][number];

/** A forecast hour as alerts read it. */
export type AlertHour = DayHour & { hour: number };

/**
 * The local dates a city's forecast hours (ascending) touch, each checked against the rule, and
 * the alerts: one per date that reaches it.
 */
export function alertsFor(city: City, hours: readonly AlertHour[], rule: AlertRule): { dates: string[]; alerts: Alert[] } {
  return alertsOfDays(
    city,
    [...groupByDay('local', city.timezone, hours)].map(([day, list]) => ({ day, list, hours: list.length })),
    rule,
  );
}

/**
 * The alerts of a daily provider's forecast: each of its dates (the place's days) is one value,
 * read as its day's worst and highest, as its daily row reads it; `hours` 0 says so.
 */
export function alertsForDays(
  city: City,
  days: ReadonlyArray<{ day: number; values: DayHour }>,
  rule: AlertRule,
): { dates: string[]; alerts: Alert[] } {
  return alertsOfDays(
    city,
    days.map(({ day, values }) => ({ day, list: [values], hours: 0 })),
    rule,
  );
}

/** The alerts of days, each with the rows its worst and highest are read from and the hours it holds. */
function alertsOfDays(
  city: City,
  days: Iterable<{ day: number; list: readonly DayHour[]; hours: number }>,
  rule: AlertRule,
): { dates: string[]; alerts: Alert[] } {
  const dates: string[] = [];
  const alerts: Alert[] = [];
  for (const { day, list, hours } of days) {
    const date = dayString(day);
    dates.push(date);
    const summary = summarize(list);
    const reached = rule.categories
      .map((c) => categoryPeak(c, summary))
      .filter((c): c is AlertCategory => c.risk !== null && atLeast(c.risk, rule.min));
    // Every allergen's worst hour of the day, read once: the watched ones, the leaders and the top ones come from it.
    const peaks = speciesPeaks(list);
    const plants = (rule.species ?? [])
      .map((a) => speciesPeak(a, peaks))
      .filter((s): s is AlertSpecies => s.risk !== null && atLeast(s.risk, rule.min));
    if (reached.length === 0 && plants.length === 0) continue;
    const leaders = new Map(reached.map((c) => [c.category, leadingAllergen(c.category, peaks)]));
    const top = peaks.slice(0, TOP_SPECIES);
    alerts.push({
      id: `urn:uuid:${alertUuid(city.slug, date, rule)}`,
      date,
      tz: dayOffset('local', city.timezone, day),
      hours,
      categories: reached,
      species: plants,
      top_species: top,
      summary: summaryOf(city, day, reached, leaders, plants, top),
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

/**
 * The allergen whose worst hour sets a category's level (the highest-allergen rule) and its
 * highest hourly value, from the day's ranked peaks; none for ragweed, which is that allergen, or
 * a category without species.
 */
function leadingAllergen(category: Graded, peaks: readonly TopSpecies[]): TopSpecies | undefined {
  return category === 'ragweed' ? undefined : peaks.find((s) => s.category === SPECIES_KEY[category]);
}

/** A watched allergen's worst hour, on its category's NAB range (no peak where no hour holds it above 0). */
function speciesPeak(
  allergen: Allergen,
  peaks: readonly TopSpecies[],
): { category: Allergen['category']; name: string; slug: string; risk: AlertLevel | null; peak: number | null } {
  const peak = peaks.find((s) => s.category === SPECIES_KEY[allergen.category] && s.name === allergen.name)?.peak ?? null;
  const risk = allergenRisk(allergen, peak);
  return {
    category: allergen.category,
    name: allergen.name,
    slug: allergen.slug,
    risk: risk === null || risk === 'None' ? null : risk,
    peak,
  };
}

/** The day's allergens with a value above 0, highest hourly value first (then by name); plain-number groups (`Others`) are not allergens. */
export const topSpecies = (hours: readonly DayHour[], count = TOP_SPECIES): TopSpecies[] => speciesPeaks(hours).slice(0, count);

/** Every allergen's highest hourly value above 0 over some hours, highest first (then by name). */
function speciesPeaks(hours: readonly DayHour[]): TopSpecies[] {
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
  return [...best.values()].sort((a, b) => b.peak - a.peak || a.name.localeCompare(b.name, 'en'));
}

const LABEL: Readonly<Record<Graded, string>> = {
  tree: 'tree pollen',
  grass: 'grass pollen',
  weed: 'weed pollen',
  ragweed: 'ragweed pollen',
};

/**
 * "High tree pollen (Oak up to 945 grains/m³, all tree pollen up to 2796) in Austin, TX on Wed,
 * Apr 2; most: Oak, Birch.": the allergen that sets the level first, since a category's total may
 * stand above the range its level names; a category without species as "(peak 412 grains/m³)";
 * a watched allergen as "High Oak pollen (peak 412 grains/m³, on the NAB tree range)".
 */
function summaryOf(
  city: City,
  day: number,
  reached: readonly AlertCategory[],
  leaders: ReadonlyMap<Graded, TopSpecies | undefined>,
  plants: readonly AlertSpecies[],
  top: readonly TopSpecies[],
): string {
  const values = (c: AlertCategory): string => {
    const lead = leaders.get(c.category);
    if (c.peak === null) return lead ? ` (${lead.name} up to ${Math.round(lead.peak)} grains/m³)` : '';
    if (!lead || Math.round(lead.peak) === Math.round(c.peak)) return ` (peak ${Math.round(c.peak)} grains/m³)`;
    return ` (${lead.name} up to ${Math.round(lead.peak)} grains/m³, all ${LABEL[c.category]} up to ${Math.round(c.peak)})`;
  };
  const parts = [
    ...reached.map((c) => `${c.risk} ${LABEL[c.category]}${values(c)}`),
    ...plants.map(
      (s) => `${s.risk} ${s.name} pollen (${s.peak === null ? '' : `peak ${Math.round(s.peak)} grains/m³, `}${onRange(s.category)})`,
    ),
  ];
  const list = listed(parts);
  const date = dateInWords(dayString(day));
  const species = top.length === 0 ? '' : `; most: ${top.map((s) => s.name).join(', ')}`;
  return `${list} in ${city.name}, ${city.state} on ${date}${species}.`;
}

/**
 * The readable name an alert's UUID is made from: `austin:2025-03-09:High:tree,grass`, with
 * `:species=oak,birch` when the rule watches allergens. A subscription's later answers name the
 * same day the same way, whatever the day's values.
 */
export const alertName = (city: string, date: string, rule: AlertRule): string => `${city}:${date}:${ruleName(rule)}`;

/** A subscription's own name, for a feed's id. */
export const feedName = (city: string, rule: AlertRule): string => `${city}:${ruleName(rule)}`;

const ruleName = (rule: AlertRule): string => {
  const species = (rule.species ?? []).map((s) => s.slug).join(',');
  return `${rule.min}:${rule.categories.join(',')}${species === '' ? '' : `:species=${species}`}`;
};

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
