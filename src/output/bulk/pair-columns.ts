/**
 * The forecast-pairs files' columns (scoring/score-cities.ts writes them, a file a month): the days
 * every score of /api/forecast-skill is made from, each read from a category's pair columns
 * (domain/verification/pairs.ts). Each side of a pair as it was issued: each provider's forecast
 * (a column for each provider and lead its kept forecasts reach, PairLayout), persistence and
 * climatology as their issue day kept them, the outlook's score at each lead; the observed side as
 * the store holds it now.
 */
import { RISK_LABELS } from '../../domain/species/risk.js';
import { MIN_LEADS } from '../../domain/verification/leads.js';
import { OUTLOOK_LEADS } from '../../domain/verification/outlook.js';
import type { PairColumns } from '../../domain/verification/pairs.js';
import { column, type Field, type Value } from './field.js';

/** A row of the pairs file: a category's pair columns, at row `i`, of a city. */
export interface PairRow {
  city: string;
  c: PairColumns;
  i: number;
}

const LEVEL = 'NAB level: None, Low, Moderate, High or Very High';
const GRAINS = 'grains/m³';
const MEAN = 'daily mean to a thousandth';
const leads = (count: number) => Array.from({ length: count }, (_, lead) => lead);
const SERVED = ['outlook', 'climatology'] as const;

const pairField = column<PairRow>;
const numberOrNull = (v: number): Value => (Number.isNaN(v) ? null : v);
const levelOf = (level: number): Value => (level < 0 ? null : RISK_LABELS[level]!);

/** The providers whose kept forecasts the files carry, each with the leads they reach, the one first issued first. */
export type PairLayout = ReadonlyArray<{ provider: string; leads: number }>;

/** A provider's id as a column name's part: letters, digits and underscores. */
const columnPart = (provider: string): string => provider.toLowerCase().replace(/[^a-z0-9]+/g, '_');

/** A provider's forecast at a lead on the row, as one of its columns reads it; undefined where the city has none of its. */
function providerAt(p: PairRow, provider: string, pick: 'value' | 'level' | 'issued', lead: number): number | undefined {
  return p.c.providers.find((x) => x.provider === provider)?.[pick][lead]?.[p.i];
}

/** The observed day's columns: where, what and when, and climatology's forecast of it. */
const dayFields = (): Field<PairRow>[] => [
  pairField('city', 'STRING', 'City slug, as GET /api/cities lists it', (p) => p.city, undefined, false),
  pairField('category', 'STRING', "tree, grass, weed or ragweed (the Weed group's Ragweed)", (p) => p.c.category, undefined, false),
  pairField('date', 'DATE', 'UTC day', (p) => p.c.day[p.i]!, undefined, false),
  pairField(
    'provider',
    'STRING',
    "The provider of the observed day, as the store records it: the forecast each single provider's score compares with it is that provider's (forecast_<provider>_*); side by side, every provider's is",
    (p) => p.c.provider[p.i]!,
    undefined,
    false,
  ),
  pairField(
    'season_year',
    'INT32',
    "The category's season year (tree's from 1 October before)",
    (p) => p.c.seasonYear[p.i]!,
    undefined,
    false,
  ),
  pairField('observed_value', 'DOUBLE', `Observed ${MEAN}`, (p) => p.c.observedValue[p.i]!, GRAINS, false),
  pairField('observed_level', 'STRING', `Observed ${LEVEL}`, (p) => RISK_LABELS[p.c.observedLevel[p.i]!]!, undefined, false),
  pairField(
    'climatology_value',
    'DOUBLE',
    "Climatology's forecast: the median day of the earlier years within a week of the date, kept when the first outlook reaching the day was issued",
    (p) => numberOrNull(p.c.climatologyValue[p.i]!),
    GRAINS,
  ),
  pairField('climatology_level', 'STRING', `That day's ${LEVEL}`, (p) => levelOf(p.c.climatologyLevel[p.i]!)),
  pairField('climatology_rps', 'DOUBLE', "Ranked probability score of climatology's probabilities on the day (0 perfect)", (p) =>
    numberOrNull(p.c.climatologyRps[p.i]!),
  ),
];

/** Each provider's forecast at each lead it reaches. */
function providerFields(layout: PairLayout): Field<PairRow>[] {
  return layout.flatMap(({ provider, leads: reached }) =>
    leads(reached).flatMap((lead) => {
      const name = `forecast_${columnPart(provider)}`;
      return [
        pairField(
          `${name}_value_${lead}`,
          'DOUBLE',
          `${provider}'s forecast at lead ${lead} (issued ${lead} days before): its ${MEAN}`,
          (p) => numberOrNull(providerAt(p, provider, 'value', lead) ?? Number.NaN),
          GRAINS,
        ),
        pairField(`${name}_level_${lead}`, 'STRING', `Its ${LEVEL}`, (p) => levelOf(providerAt(p, provider, 'level', lead) ?? -1)),
        pairField(`${name}_issued_${lead}`, 'TIMESTAMP', 'When it was issued, UTC (the last forecast issued that day counts)', (p) =>
          numberOrNull(providerAt(p, provider, 'issued', lead) ?? Number.NaN),
        ),
      ];
    }),
  );
}

/** Persistence at each lead to `reach`. */
function persistenceFields(reach: number): Field<PairRow>[] {
  return leads(reach).flatMap((lead) => [
    pairField(
      `persistence_value_${lead}`,
      'DOUBLE',
      `Persistence at lead ${lead}: the ${MEAN} of the last complete day observed before the issue day, as that day kept it`,
      (p) => numberOrNull(p.c.persistenceValue[lead]?.[p.i] ?? Number.NaN),
      GRAINS,
    ),
    pairField(`persistence_level_${lead}`, 'STRING', `Its ${LEVEL}`, (p) => levelOf(p.c.persistenceLevel[lead]?.[p.i] ?? -1)),
  ]);
}

/** The outlook's score and what was served at each of its leads, whether each issue day was in season, and beyond the outlook's leads the same to `reach`. */
function outlookFields(reach: number): Field<PairRow>[] {
  return [
    ...leads(OUTLOOK_LEADS).flatMap((lead) => [
      pairField(
        `outlook_rps_${lead}`,
        'DOUBLE',
        `Ranked probability score of the outlook issued ${lead} days before, as kept when issued (0 perfect)`,
        (p) => numberOrNull(p.c.outlookRps[lead]![p.i]!),
      ),
      pairField(
        `served_${lead}`,
        'STRING',
        `What that issue served at lead ${lead}: outlook or climatology (null: never served, an outlook made again)`,
        (p) => {
          const code = p.c.served[lead]![p.i]!;
          return code < 0 ? null : SERVED[code]!;
        },
      ),
      pairField(
        `in_season_${lead}`,
        'BOOLEAN',
        `Whether the category's season was under way on that issue day (EAACI definition, as known then); null without an outlook`,
        (p) => inSeasonAt(p, lead),
      ),
    ]),
    // Beyond the outlook's leads, whether a provider's forecast's issue day was in season (window_in_season).
    ...leads(reach)
      .slice(OUTLOOK_LEADS)
      .map((lead) =>
        pairField(
          `in_season_${lead}`,
          'BOOLEAN',
          `Whether the category's season was under way on the day ${lead} days before (EAACI definition, as known then); null without an outlook kept that day`,
          (p) => inSeasonAt(p, lead),
        ),
      ),
  ];
}

/** One row per city, category and UTC day observed (verification-days.ts): the columns any score is computed again from. */
export function pairFields(layout: PairLayout): Field<PairRow>[] {
  const reach = Math.max(MIN_LEADS, ...layout.map((p) => p.leads));
  return [...dayFields(), ...ownProviderFields(), ...providerFields(layout), ...persistenceFields(reach), ...outlookFields(reach)];
}

/**
 * The observed day's own provider's forecast, to the 48 hours every provider reaches: the columns
 * these files have always had, kept for the notebooks that read them.
 */
function ownProviderFields(): Field<PairRow>[] {
  return leads(MIN_LEADS).flatMap((lead) => [
    pairField(
      `forecast_value_${lead}`,
      'DOUBLE',
      `The observed day's provider's forecast at lead ${lead} (issued ${lead} days before): its ${MEAN}`,
      (p) => numberOrNull(p.c.forecastValue[lead]?.[p.i] ?? Number.NaN),
      GRAINS,
    ),
    pairField(`forecast_level_${lead}`, 'STRING', `Its ${LEVEL}`, (p) => levelOf(p.c.forecastLevel[lead]?.[p.i] ?? -1)),
    pairField(`forecast_issued_${lead}`, 'TIMESTAMP', 'When it was issued, UTC (the last forecast issued that day counts)', (p) =>
      numberOrNull(p.c.forecastIssued[lead]?.[p.i] ?? Number.NaN),
    ),
  ]);
}

function inSeasonAt(p: PairRow, lead: number): Value {
  const v = p.c.inSeason[lead]?.[p.i] ?? -1;
  return v < 0 ? null : v === 1;
}
