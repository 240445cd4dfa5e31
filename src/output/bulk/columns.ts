/**
 * The bulk files' columns: one column set per kind for the whole store (each species a column),
 * so that many months read as one table; each column's type, unit and meaning (the data
 * dictionary the manifest gives), and how its value is taken from the API's own row.
 */

import type { BulkKind } from '../../deploy-data/bulk-index.js';
import { type Shape, type Species, speciesColumn } from '../../domain/species/payload.js';
import { CATEGORIES } from '../../domain/species/risk.js';
import { INTEGER_FIELDS, TEXT_FIELDS, WEATHER_FIELDS } from '../../domain/weather.js';
import type { StoreReader } from '../../store/reader.js';
import { type Field, field } from './field.js';
import { type PairRow, pairFields } from './pair-columns.js';

export type { Field, Value } from './field.js';

const GRAINS = 'grains/m³';
const RISK = 'NAB risk label: None, Low, Moderate, High or Very High; empty when the value is missing';

/** One column per species of the store's shapes, in first-seen order: `tree_oak`, `others`. */
function speciesFields(shapes: readonly Shape[], taken: ReadonlySet<string>, what: string): Field[] {
  const fields = new Map<string, Field>();
  const add = (category: string, name: string | undefined) => {
    let column = speciesColumn(category, name);
    if (taken.has(column)) column = `${column}_species`;
    if (fields.has(column)) return;
    const value = (row: Record<string, unknown>): number | null => {
      const group = (row.species as Species | null)?.[category];
      if (name === undefined) return typeof group === 'number' ? group : null;
      return group !== null && typeof group === 'object' ? (group[name] ?? null) : null;
    };
    fields.set(column, {
      name: column,
      type: 'DOUBLE',
      nullable: true,
      unit: GRAINS,
      description: `${name ?? category} (${category}), ${what}`,
      provider: { category, ...(name === undefined ? {} : { name }) },
      value,
    });
  };
  for (const shape of shapes)
    for (const [category, names] of shape) {
      if (!names) add(category, undefined);
      else for (const n of names) add(category, n);
    }
  return [...fields.values()];
}

const CITY = field('city', 'STRING', 'City slug, as GET /api/cities lists it', undefined, false);
/** Which provider the row's values came from: a store may hold days of two (domain/provenance.ts). */
const PROVIDER = (what: string) =>
  field('provider', 'STRING', `The provider of the ${what}'s values (sample: simulated, never measured)`, undefined, false);
const RISKS = CATEGORIES.map((c) => field(`risk_${c}`, 'STRING', `${c}: ${RISK}`));

/** Each kind's columns: the pairs file's are taken from the skill's pairs, the others' from the API's rows. */
export type KindFields = Record<Exclude<BulkKind, 'forecast-pairs'>, Field[]> & { 'forecast-pairs': Field<PairRow>[] };

/** The columns of each kind, for the store's species. */
export function bulkColumns(store: Pick<StoreReader, 'shapes'>): KindFields {
  const shapes = store.shapes.all();
  const categories = (what: string) => CATEGORIES.map((c) => field(c, 'DOUBLE', `${c} pollen, ${what}`, GRAINS));
  const hourly = [
    CITY,
    field('ts', 'TIMESTAMP', 'Start of the hour, UTC', undefined, false),
    ...categories('the hour'),
    field('total', 'DOUBLE', 'tree + grass + weed of the hour', GRAINS),
    ...RISKS,
    field('timezone', 'STRING', "The city's IANA zone as the provider reported it"),
    PROVIDER('hour'),
  ];
  const daily = [
    CITY,
    field('date', 'DATE', 'UTC day', undefined, false),
    ...categories("mean of the UTC day's hours, rounded"),
    field('total', 'DOUBLE', 'Mean total of the day, rounded', GRAINS),
    ...RISKS.map((f) => ({ ...f, description: `${f.description} (graded on the unrounded mean)` })),
    field('timezone', 'STRING', "The city's IANA zone as the provider reported it"),
    ...[...CATEGORIES, 'total'].map((c) => field(`peak_${c}`, 'DOUBLE', `Highest hourly ${c} of the day`, GRAINS)),
    ...CATEGORIES.map((c) => field(`peak_risk_${c}`, 'STRING', `Worst hourly ${c} risk of the day (${RISK})`)),
    PROVIDER('day'),
  ];
  const weather = [
    CITY,
    field('date', 'DATE', 'UTC day', undefined, false),
    ...WEATHER_FIELDS.map((f) =>
      field(f, TEXT_FIELDS.has(f) ? 'STRING' : INTEGER_FIELDS.has(f) ? 'INT32' : 'DOUBLE', WEATHER_MEANING[f][0], WEATHER_MEANING[f][1]),
    ),
    field('source', 'STRING', 'Provider of the row'),
    field('created_at', 'TIMESTAMP', 'When the provider answered, UTC', undefined, false),
  ];
  return {
    seasons: SEASON_FIELDS,
    // The pairs files' provider columns are the skill step's (scoring/scoring-plan.ts): none here.
    'forecast-pairs': pairFields([]),
    'pollen-hourly': [...hourly, ...speciesFields(shapes, new Set(hourly.map((f) => f.name)), 'the hour')],
    'pollen-daily': [...daily, ...speciesFields(shapes, new Set(daily.map((f) => f.name)), "mean of the UTC day's hours, rounded")],
    'weather-daily': weather,
  };
}

const WEATHER_MEANING: Record<(typeof WEATHER_FIELDS)[number], [string, string?]> = {
  tz: ['UTC offset of the city as the provider reported it'],
  timezone: ["The city's IANA zone"],
  temp_min_c: ['Lowest temperature of the day', '°C'],
  temp_max_c: ['Highest temperature of the day', '°C'],
  temp_day_c: ['Mean temperature of the day', '°C'],
  feels_like_day_c: ['Mean apparent temperature of the day', '°C'],
  humidity: ['Mean relative humidity', '%'],
  pressure_hpa: ['Mean sea-level pressure', 'hPa'],
  wind_speed_ms: ['Mean wind speed', 'm/s'],
  wind_deg: ['Wind direction', 'degrees'],
  clouds_pct: ['Cloud cover', '%'],
  precip_mm: ['Precipitation of the day', 'mm'],
  uvi: ['UV index'],
  weather_main: ['Weather group (OpenWeatherMap)'],
  weather_desc: ['Weather description'],
  aqi: ['Air-quality index, 1 (good) to 5 (very poor), OpenWeatherMap scale'],
  aqi_pm2_5: ['PM2.5', 'μg/m³'],
  aqi_pm10: ['PM10', 'μg/m³'],
  aqi_o3: ['Ozone', 'μg/m³'],
  aqi_no2: ['Nitrogen dioxide', 'μg/m³'],
  aqi_so2: ['Sulphur dioxide', 'μg/m³'],
  aqi_co: ['Carbon monoxide', 'μg/m³'],
};

const GRAIN_DAYS = 'grains·day/m³';
const SEASON = "The main pollen season (the days from 2.5% to 97.5% of the year's cumulative sum)";

/** One row per city, year held and category: the seasons of /api/season?city= (UTC days). */
const SEASON_FIELDS: Field[] = [
  CITY,
  field('year', 'INT32', "Calendar year (tree's starts on 1 October of the year before)", undefined, false),
  field('category', 'STRING', "tree, grass, weed, ragweed, or an allergen species named as the daily file's columns", undefined, false),
  field('from', 'DATE', "First day of the category's year", undefined, false),
  field('to', 'DATE', "Last day of the category's year", undefined, false),
  field('days_with_data', 'INT32', 'Days of the year with a daily mean', undefined, false),
  field('closed', 'BOOLEAN', "Whether the year is over on the city's latest data day", undefined, false),
  field('complete', 'BOOLEAN', 'Whether the year is over and at least 90% of its days have a daily mean', undefined, false),
  field('through', 'DATE', 'The last day of the year with a daily mean'),
  field('apin', 'DOUBLE', 'Annual pollen integral: daily means summed over the year (so far)', GRAIN_DAYS, false),
  field(
    'basis',
    'STRING',
    'What 2.5% and 97.5% are shares of: year, days held (a year over with gaps), earlier years (the mean total of complete earlier years) or so far',
    undefined,
    false,
  ),
  field('start', 'DATE', `${SEASON}: first day`),
  field('end', 'DATE', `${SEASON}: last day; while the year is under way, the status end once the season has ended, else empty`),
  field('season_days', 'INT32', `${SEASON}: days from start to end (or to the last day held)`),
  field('peak_date', 'DATE', "First day of the year's highest daily mean"),
  field('peak_value', 'DOUBLE', 'That daily mean', GRAINS),
  field('spin', 'DOUBLE', 'Seasonal pollen integral: daily means summed over the season', GRAIN_DAYS),
  ...['None', 'Low', 'Moderate', 'High', 'Very High'].map((r) =>
    field(`days_${r.toLowerCase().replace(' ', '_')}`, 'INT32', `Days of the season with a value graded ${r} (NAB)`),
  ),
  field('reason', 'STRING', 'Why there is no season: no data in the year, no pollen above zero, or not started by a date'),
  field(
    'status',
    'STRING',
    'Where the season stands by the EAACI concentration definition: not started, in season, ended or no season',
    undefined,
    false,
  ),
  field('status_start', 'DATE', "That definition's start: the first day of the first period of 5 days within 7 at or above its threshold"),
  field('status_end', 'DATE', 'Its end: the last day of the last such period, once the season has ended'),
];

export const KIND_MEANING: Record<BulkKind, string> = {
  'forecast-pairs':
    "One row per city, category and UTC day observed: the observed daily mean and level; what the provider's forecast and persistence at each lead (0 to 2), and climatology, said of it, each as its issue day kept it; the ranked probability scores of the outlook at each lead (0 to 7), as kept when issued, and of climatology; what each lead served, and whether its issue day was in season: every score of /api/forecast-skill can be computed again from them. One file a month; the trailing window is the rows of its last 90 days.",
  seasons:
    'One row per city, year held and category: the pollen seasons of /api/season?city= by the percentage method, on UTC days. One file for every year.',
  'pollen-hourly': 'One row per city-hour: the rows of /api/pollen-range (aggregate=none), species as columns.',
  'pollen-daily': 'One row per city and UTC day with data: the daily rows of /api/pollen?city=, peaks included, species means as columns.',
  'weather-daily': 'One row per city and UTC day: the rows of /api/weather?city= (city_slug is city).',
};
