/**
 * One answer per day from the city's today: the headline's today and tomorrow and the 7-day strip
 * read the same list, so they can never disagree. Each day takes one source, said once: the
 * provider's forecast while it reaches, then the outlook, and where the outlook has not done better
 * than the usual for the season, the usual (docs/data.md, "The outlook"). The reader's plants are
 * read from the provider's species where it forecasts them; elsewhere their category stands in,
 * and the answer says so.
 */

import type { ProviderForecastDay } from '../../api/endpoints/forecast.js';
import type { ForecastOutlook } from '../../api/endpoints/forecast-outlook.js';
import { dayNumber, dayString } from '../../domain/dates.js';
import { type Allergen, allergenPeak, allergenRisk, outlookCategory } from '../../domain/species/allergens.js';
import type { Graded } from '../../domain/species/risk.js';
import { hoursOn, type SpeciesHour } from './allergens.js';
import type { ForecastDay, Risk } from './api.js';
import { worst } from './risk.js';

/** Where a day's number comes from. */
export type DaySource = 'forecast' | 'outlook' | 'usual';

/** One row of a day: a plant of the reader's, or a category when none is picked. */
export interface Reading {
  key: string;
  label: string;
  level: Risk;
  source: DaySource;
  /** The outlook's probability of `level`. */
  chance?: number;
  /** The number that stands in for a plant whose own value this source does not give: "tree pollen". */
  standIn?: string;
}

export interface DayAnswer {
  date: string;
  /** Days after the city's today. */
  lead: number;
  readings: Reading[];
  /** The worst of the readings. */
  level: Risk;
  /** The day's source when its readings share one. */
  source: DaySource | 'mixed';
  /** The forecast hours the day holds (today: those still to come); 0 for a provider that forecasts days. */
  hours?: number;
}

export interface DayInputs {
  /** The forecast's local days (aggregate=day), today first; a daily provider's dates have hours 0. */
  days: readonly (ForecastDay | ProviderForecastDay)[];
  /** The forecast's hours, with species, for the reader's plants (none from a daily provider). */
  hourly: readonly SpeciesHour[];
  zone: string;
  outlook: ForecastOutlook | null | undefined;
  chosen: readonly Allergen[];
  /** How many days from today the list reaches. */
  span?: number;
}

const CATEGORY_ROWS = [
  ['tree', 'Tree'],
  ['grass', 'Grass'],
  ['weed', 'Weed'],
] as const;

/** The city's today: the forecast's first local day, else the outlook's first date. */
export function cityToday(inputs: Pick<DayInputs, 'days' | 'outlook'>): string | undefined {
  return inputs.days[0]?.date ?? inputs.outlook?.dates[0]?.date;
}

function fromForecast(day: ForecastDay | ProviderForecastDay, inputs: DayInputs): Reading[] {
  if (inputs.chosen.length === 0)
    return CATEGORY_ROWS.map(([key, label]) => ({ key, label, level: day[`peak_risk_${key}`], source: 'forecast' as const }));
  // An hourly provider's plants are in its hours; a daily provider's in its day's species.
  const hours = 'lead' in day || day.hours === 0 ? [day] : hoursOn(inputs.hourly, inputs.zone, day.date);
  return inputs.chosen.map((a) => {
    const peak = allergenPeak(a, hours);
    if (peak !== null) return { key: a.slug, label: a.name, level: allergenRisk(a, peak), source: 'forecast' as const };
    return {
      key: a.slug,
      label: a.name,
      level: day[`peak_risk_${a.category}`],
      source: 'forecast' as const,
      standIn: `${a.category} pollen`,
    };
  });
}

function fromOutlook(date: ForecastOutlook['dates'][number], chosen: readonly Allergen[]): Reading[] {
  const reading = (category: Graded, key: string, label: string, standIn?: string): Reading => {
    const c = date.categories.find((x) => x.category === category);
    const level = c?.most_likely ?? null;
    return {
      key,
      label,
      level,
      source: c?.served === 'outlook' ? 'outlook' : 'usual',
      ...(level && c?.probabilities ? { chance: c.probabilities[level] } : {}),
      ...(standIn ? { standIn } : {}),
    };
  };
  if (chosen.length === 0) return CATEGORY_ROWS.map(([key, label]) => reading(key, key, label));
  // The outlook is made for categories: a plant's category speaks for it, except ragweed, forecast as itself.
  return chosen.map((a) => {
    const category = outlookCategory(a);
    return reading(category, a.slug, a.name, category === 'ragweed' ? undefined : `${category} pollen`);
  });
}

const sourceOf = (readings: readonly Reading[]): DayAnswer['source'] => {
  const sources = new Set(readings.map((r) => r.source));
  return sources.size === 1 ? [...sources][0]! : 'mixed';
};

/** Each day from the city's today, as far as a source reaches (at most `span` days, 7 by default). */
export function dayAnswers(inputs: DayInputs): DayAnswer[] {
  const today = cityToday(inputs);
  if (!today) return [];
  const answers: DayAnswer[] = [];
  for (let lead = 0; lead < (inputs.span ?? 7); lead++) {
    const date = dayString(dayNumber(today) + lead);
    const forecast = inputs.days.find((d) => d.date === date);
    const outlook = inputs.outlook?.dates.find((d) => d.date === date);
    const readings = forecast ? fromForecast(forecast, inputs) : outlook ? fromOutlook(outlook, inputs.chosen) : undefined;
    if (!readings) continue;
    answers.push({
      date,
      lead,
      readings,
      level: worst(...readings.map((r) => r.level)),
      source: sourceOf(readings),
      ...(forecast ? { hours: 'hours' in forecast ? forecast.hours : 0 } : {}),
    });
  }
  return answers;
}

/** "Forecast", "Outlook", "Usual for the season": a day's source as the page says it. */
export const SOURCE_WORDS: Record<DayAnswer['source'], string> = {
  forecast: 'forecast',
  outlook: 'outlook',
  usual: 'usual for the season',
  mixed: 'outlook and usual for the season',
};
