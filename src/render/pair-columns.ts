/** The forecast-pairs file's columns (forecast-skills.ts writes it): the days every score of /api/forecast-skill is made from. */
import { FORECAST_LEADS } from '../domain/forecast-skill.js';
import { OUTLOOK_LEADS } from '../domain/outlook.js';
import { type Field, field } from './bulk-field.js';

const LEVEL = 'NAB level: None, Low, Moderate, High or Very High';
const leads = (count: number) => Array.from({ length: count }, (_, lead) => lead);

/** One row per city, category and UTC day observed: the columns any score is computed again from. */
export const PAIR_FIELDS: readonly Field[] = [
  field('city', 'STRING', 'City slug, as GET /api/cities lists it', undefined, false),
  field('category', 'STRING', "tree, grass, weed or ragweed (the Weed group's Ragweed)", undefined, false),
  field('date', 'DATE', 'UTC day', undefined, false),
  field('season_year', 'INT32', "The category's season year (tree's from 1 October before)", undefined, false),
  field(
    'in_window',
    'BOOLEAN',
    'Whether the day is in the trailing window of the scores (the last 90 days to the latest data day)',
    undefined,
    false,
  ),
  field('observed_value', 'DOUBLE', 'Observed daily mean, rounded', 'grains/m³', false),
  field('observed_level', 'STRING', `Observed ${LEVEL} (graded as the daily rows are)`, undefined, false),
  field(
    'climatology_value',
    'DOUBLE',
    "Climatology's forecast: the median day of the earlier years within a week of the date",
    'grains/m³',
  ),
  field('climatology_level', 'STRING', `That day's ${LEVEL}`),
  ...leads(FORECAST_LEADS).flatMap((lead) => [
    field(`forecast_value_${lead}`, 'DOUBLE', `The forecast at lead ${lead} (issued ${lead} days before): its daily mean`, 'grains/m³'),
    field(`forecast_level_${lead}`, 'STRING', `Its ${LEVEL}`),
    field(`forecast_issued_${lead}`, 'TIMESTAMP', 'When it was issued, UTC (the last forecast issued that day counts)'),
  ]),
  ...leads(OUTLOOK_LEADS).map((lead) =>
    field(`outlook_rps_${lead}`, 'DOUBLE', `Ranked probability score of the outlook issued ${lead} days before (0 perfect)`),
  ),
  field('climatology_rps', 'DOUBLE', "Ranked probability score of climatology's probabilities on the day"),
];
