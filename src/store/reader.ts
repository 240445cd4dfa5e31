/**
 * What answering a request may read of the store: handlers and MCP tools see this, never the
 * writes, the call ledger, the forecast cache or the store's maintenance (VACUUM and the rest).
 */

import type { DayValuesTable } from './day-values.js';
import type { ForecastSkills } from './forecast-skills.js';
import type { IngestRuns } from './ingest-runs.js';
import type { PollenDays } from './pollen-days.js';
import type { SpeciesShapes } from './species-shapes.js';
import type { WeatherDays } from './weather-days.js';

export interface StoreReader {
  readonly pollen: Pick<
    PollenDays,
    | 'hours'
    | 'iterateHours'
    | 'countUpTo'
    | 'daysWithData'
    | 'latestDay'
    | 'latestHour'
    | 'latestSource'
    | 'sourcesIn'
    | 'cityDaysWithData'
    | 'citiesWithDataOn'
  >;
  readonly weather: Pick<WeatherDays, 'cityDay' | 'forCity' | 'forDay' | 'days' | 'latestDay' | 'latestSource' | 'citiesOn'>;
  readonly values: Pick<DayValuesTable, 'on' | 'has' | 'newest' | 'span' | 'across'>;
  readonly runs: Pick<IngestRuns, 'last'>;
  readonly shapes: Pick<SpeciesShapes, 'all'>;
  /** Each city's forecast skill, as a render computed it. */
  readonly skills: Pick<ForecastSkills, 'get' | 'has' | 'written'>;
  /** Bytes of the longest stored label, as UTF-8 (a bound on a row's size). */
  longestLabelBytes(): number;
}
