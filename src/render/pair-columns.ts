/**
 * The forecast-pairs file's columns (forecast-skills.ts writes it): the days every score of
 * /api/forecast-skill is made from, each taken straight from the skill's pair.
 */
import { FORECAST_LEADS, type PairRow } from '../domain/forecast-skill.js';
import { OUTLOOK_LEADS } from '../domain/outlook.js';
import { column, type Field } from './bulk-field.js';

const LEVEL = 'NAB level: None, Low, Moderate, High or Very High';
const GRAINS = 'grains/m³';
const leads = (count: number) => Array.from({ length: count }, (_, lead) => lead);

/** A column of the pairs file, its value taken from the pair. */
const pairField = column<PairRow>;

/** One row per city, category and UTC day observed: the columns any score is computed again from. */
export const PAIR_FIELDS: readonly Field<PairRow>[] = [
  pairField('city', 'STRING', 'City slug, as GET /api/cities lists it', (p) => p.city, undefined, false),
  pairField('category', 'STRING', "tree, grass, weed or ragweed (the Weed group's Ragweed)", (p) => p.category, undefined, false),
  pairField('date', 'DATE', 'UTC day', (p) => p.day, undefined, false),
  pairField('season_year', 'INT32', "The category's season year (tree's from 1 October before)", (p) => p.seasonYear, undefined, false),
  pairField(
    'in_window',
    'BOOLEAN',
    'Whether the day is in the trailing window of the scores (the last 90 days to the latest data day)',
    (p) => p.inWindow,
    undefined,
    false,
  ),
  pairField('observed_value', 'DOUBLE', 'Observed daily mean, rounded', (p) => p.observed.value, GRAINS, false),
  pairField('observed_level', 'STRING', `Observed ${LEVEL} (graded as the daily rows are)`, (p) => p.observed.level, undefined, false),
  pairField(
    'climatology_value',
    'DOUBLE',
    "Climatology's forecast: the median day of the earlier years within a week of the date",
    (p) => p.climatology?.value ?? null,
    GRAINS,
  ),
  pairField('climatology_level', 'STRING', `That day's ${LEVEL}`, (p) => p.climatology?.level ?? null),
  ...leads(FORECAST_LEADS).flatMap((lead) => [
    pairField(
      `forecast_value_${lead}`,
      'DOUBLE',
      `The forecast at lead ${lead} (issued ${lead} days before): its daily mean`,
      (p) => p.forecast[lead]?.value ?? null,
      GRAINS,
    ),
    pairField(`forecast_level_${lead}`, 'STRING', `Its ${LEVEL}`, (p) => p.forecast[lead]?.level ?? null),
    pairField(
      `forecast_issued_${lead}`,
      'TIMESTAMP',
      'When it was issued, UTC (the last forecast issued that day counts)',
      (p) => p.forecast[lead]?.issuedAt ?? null,
    ),
  ]),
  ...leads(OUTLOOK_LEADS).map((lead) =>
    pairField(
      `outlook_rps_${lead}`,
      'DOUBLE',
      `Ranked probability score of the outlook issued ${lead} days before (0 perfect)`,
      (p) => p.outlookRps[lead] ?? null,
    ),
  ),
  pairField('climatology_rps', 'DOUBLE', "Ranked probability score of climatology's probabilities on the day", (p) => p.climatologyRps),
];
