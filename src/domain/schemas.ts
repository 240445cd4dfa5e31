/**
 * The shapes of what the service answers, as zod schemas: one definition each, from which come
 * the types the domain builds (`z.infer`), the page's client types, the OpenAPI document's
 * components (each named where it is defined: schema-names.ts) and the tests' checks of every body. Each
 * subject's schemas are in a module of its own in schemas/, each type beside its schema; this
 * module names them all.
 */

export { Alert, AlertCategoryName, AlertLevel } from './schemas/alert-schemas.js';
export { BulkColumn, BulkKind, BulkManifest } from './schemas/bulk-schemas.js';
export { City, type CityRow, DateTime, Day, PollenRisk, Species } from './schemas/common-schemas.js';
export { ForecastDay, ForecastPollen, forecastHoursHeld } from './schemas/forecast-schemas.js';
export { CrossCityPollen, DailyPollen, HourlyPollen, MapDay, MapFeature, PollenRangeRow } from './schemas/pollen-schemas.js';
export {
  CategorySeason,
  EarlierYear,
  RiskDays,
  Season,
  SeasonComparison,
  SeasonState,
  SeasonStatus,
  SeasonYearRow,
} from './schemas/season-schemas.js';
export { Interval, LevelProbabilities, Outlook, OutlookDay, OutlookSkill, SkillTable, Verdict } from './schemas/skill-table-schemas.js';
export { WeatherRow } from './schemas/weather-schemas.js';
