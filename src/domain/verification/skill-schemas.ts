/**
 * The shapes of a city's forecast skill (docs/data.md, "Forecast skill", "The outlook"): the
 * scores of the forecast, of the references and of the outlook by lead day, over the trailing
 * window (all its days, and those in season) and each season year, and the outlook served now.
 * forecast-skill.ts makes them.
 */
import * as z from 'zod';
import { named } from '../schema-names.js';
import { DateTime, Day, Interval, LevelProbabilities, Outlook, OutlookSkill, SkillTable } from '../schemas.js';
import { GRADED } from '../species/risk.js';
import { PROVIDER_LEADS } from './leads.js';

export const SkillCategory = z.enum(GRADED);

export const SideBySide = named(
  'SideBySide',
  "Each provider's forecast kept for the city at one lead over one period, scored side by side: on the days every provider compared has a forecast for, beside persistence and climatology on the same days and resamples.",
  z.object({
    days: z
      .number()
      .int()
      .min(0)
      .describe(
        'The days every compared provider has a forecast for at this lead (each with at least min_pairs of its own here), observed, with each reference compared (see left_out).',
      ),
    reason: z
      .string()
      .nullable()
      .describe('Why the forecasts have no scores here: fewer shared days than min_pairs, or no provider reaching.'),
    providers: z
      .array(
        z.object({
          provider: z.string(),
          days: z
            .number()
            .int()
            .min(0)
            .describe("The period's observed days this provider has a forecast for at this lead, whoever wrote the observed day."),
          reason: z
            .string()
            .nullable()
            .describe(
              'Why it has no scores: beyond the lead its kept forecasts reach, a forecast on fewer than min_pairs days (left out of the comparison), or the shared days too few.',
            ),
          forecast: SkillTable.nullable().describe(
            'Its forecast as issued (the last issued on a day), on the shared days: null where it is not compared.',
          ),
        }),
      )
      .describe('Every provider whose forecasts are kept for the city, the one first issued first.'),
    persistence: SkillTable.nullable().describe('Persistence on the shared days; null where left out or none compared.'),
    climatology: SkillTable.nullable().describe('Climatology on the shared days; null where left out or none compared.'),
    left_out: z
      .object({ persistence: z.string().optional(), climatology: z.string().optional() })
      .describe('A reference present on fewer than half of the shared days is left out, and why.'),
  }),
);

export const SkillScores = named(
  'SkillScores',
  'The forecast, persistence, climatology and the outlook at one lead over one period.',
  z.object({
    from: Day,
    to: Day,
    days: z
      .number()
      .int()
      .min(0)
      .describe(
        'The days the forecast and its references are all scored on: observed, with the forecast issued for them at this lead, and with each reference compared (see left_out).',
      ),
    reason: z
      .string()
      .nullable()
      .describe(
        'Why the forecast and the references have no scores: fewer days than min_pairs, or a lead no kept forecast reaches (only the outlook does).',
      ),
    forecast: SkillTable.nullable().describe(
      "The forecast of the observed day's provider as issued: the last one issued on a day counts for each day it reached at this lead. Null where no kept forecast reaches the lead.",
    ),
    persistence: SkillTable.nullable().describe(
      'Persistence ("yesterday\'s level"): the last complete day observed before the forecast\'s issue day, as that day kept it. Null where left out.',
    ),
    climatology: SkillTable.nullable().describe(
      '"The usual for the season": the median day of the earlier years within a week of the date, as the store held them when the first outlook reaching the day was issued. Null where left out.',
    ),
    left_out: z
      .object({ persistence: z.string().optional(), climatology: z.string().optional() })
      .describe(
        "A reference that exists on fewer than half of the forecast's days here is left out of the comparison rather than cut the days to its own, and why (no earlier year before a store's first year: no climatology).",
      ),
    outlook: OutlookSkill.describe(
      'The outlook issued at this lead before each day, as kept when issued, against climatology as issued for the same days: scored on every day both were issued for.',
    ),
    served: OutlookSkill.describe(
      'What was served at this lead (the outlook, or climatology where the outlook had not beaten it), against climatology: on the days something was served (not the outlooks made again for days before the store kept them).',
    ),
    by_provider: z
      .array(z.object({ provider: z.string(), days: z.number().int().min(0) }))
      .optional()
      .describe(
        "Present only when the answer's days come from more than one provider (see `providers`): how many of `days` are each provider's, in the order they first come. `forecast` compares each day with its own provider's forecast only; `side_by_side` compares every provider's.",
      ),
    side_by_side: SideBySide.describe(
      "Each provider's forecast, whoever wrote the observed day, on the days they share: with one provider, its forecast's scores are `forecast`'s.",
    ),
  }),
);

export const SkillYear = SkillScores.extend({
  year: z.number().int().describe("The category's season year: the calendar year, or for tree the year from 1 October before."),
});

export const SkillLead = named(
  'SkillLead',
  'The scores at one lead day: over the trailing window, and over each season year.',
  z.object({
    lead: z
      .number()
      .int()
      .min(0)
      .max(PROVIDER_LEADS - 1)
      .describe(
        "Days after the issue day: 0 the issue day, 1 the next day...; to the outlook's 7, or as far as a provider's kept forecasts reach.",
      ),
    window: SkillScores.describe('Over the trailing window (window.days days to the latest data day).'),
    window_in_season: SkillScores.describe(
      "Over the trailing window's days whose forecast was issued while the category's season was under way (the EAACI definition, as known on the issue day).",
    ),
    years: z.array(SkillYear).describe('Over each season year the served days hold, oldest first.'),
  }),
);

export const ServedOutlookDay = z.object({
  date: Day,
  lead: z.number().int().min(0).max(7),
  probabilities: LevelProbabilities.nullable().describe(
    "The probability of each NAB level served: the outlook's, or climatology's where the outlook has not beaten it.",
  ),
  served: z.enum(['outlook', 'climatology']).describe('Which probabilities are served.'),
  why: z.string().describe("Why these probabilities are served, in a sentence: the outlook's skill at this lead over the trailing window."),
  outlook: LevelProbabilities.nullable().describe("The outlook's own probabilities."),
  climatology: LevelProbabilities.nullable().describe("Climatology's: the earlier years' days within a week of the date, as they are."),
  members: z.number().int().min(0).describe("Earlier days the outlook's probabilities are counted from."),
  anomaly_weight: z
    .number()
    .min(0)
    .max(1)
    .describe("The share of the current anomaly carried to this lead (0: climatology's spread, moved)."),
  rpss: z
    .number()
    .nullable()
    .describe("The outlook's ranked probability skill score against climatology at this lead over the trailing window, when chosen."),
  rpss_interval: Interval.describe('Its 95% interval (moving-block bootstrap), as low and high.'),
});

export const ServedOutlook = named(
  'ServedOutlook',
  "The outlook issued the day after the latest data day: each day's probabilities of each NAB level, the outlook's where it beat climatology over the trailing window at that lead, else climatology's.",
  Outlook.omit({ days: true, category: true }).extend({
    days: z.array(ServedOutlookDay),
  }),
);

export const CategorySkill = named(
  'CategorySkill',
  "One category's scores by lead day, and its outlook.",
  z.object({
    category: SkillCategory,
    leads: z.array(SkillLead),
    outlook: ServedOutlook.nullable().describe(
      'The outlook issued the day after the latest data day, as kept when issued; null when none was issued (a store whose build has not issued one).',
    ),
  }),
);

export const ForecastArchive = z
  .object({
    forecasts: z.number().int().min(0).describe('Forecasts kept whose days fall in the served days.'),
    issue_days: z.number().int().min(0).describe('Days on which at least one of them was issued.'),
    first_issued: DateTime.nullable(),
    last_issued: DateTime.nullable(),
    by: z
      .object({ build: z.number().int().min(0), function: z.number().int().min(0), made_again: z.number().int().min(0) })
      .describe(
        "How they came: the build's own call, the forecast function's fetches between builds, or a provider's past forecast made again (the sample's).",
      ),
    outlooks: z
      .object({
        issued: z.number().int().min(0).describe('Outlooks a build issued (and served), by issue day.'),
        made_again: z.number().int().min(0).describe('Outlooks made again for days before the store kept them (never served).'),
      })
      .describe('The outlooks kept as issued, with their references, each issue day one.'),
    by_provider: z
      .array(z.object({ provider: z.string(), forecasts: z.number().int().min(0) }))
      .optional()
      .describe(
        "Present only when the answer's days come from more than one provider: how many of `forecasts` each provider issued, the earliest's first.",
      ),
  })
  .describe('The forecasts and outlooks the scores are made from.');

export const Bootstrap = z
  .object({
    method: z.literal('moving blocks'),
    block_days: z.number().int().min(1),
    resamples: z.number().int().min(1),
    coverage: z.number().min(0).max(1),
  })
  .describe(
    "How every interval is made: the days resampled in blocks of consecutive days (Künsch's moving blocks), the score computed on each resample, and the percentiles that hold the coverage between them.",
  );

export const ForecastSkill = named(
  'ForecastSkillResponse',
  "A city's forecast skill: the forecasts kept for it scored against its observed days, beside persistence and climatology, and its outlook.",
  z.object({
    city: z.string(),
    provider: z
      .string()
      .nullable()
      .describe(
        "The provider of the observed days and the forecasts. null when the served days come from several providers (a store some of whose days another provider replaced): then `providers` lists them, and each score says how many of its days are each one's (`by_provider`).",
      ),
    providers: z
      .array(z.string())
      .optional()
      .describe(
        "Present only when the served days come from more than one provider: each of them, the earliest day's first. Each day is compared with its own provider's forecast only; the forecast-pairs files name each day's (`provider`).",
      ),
    simulated: z
      .literal(true)
      .optional()
      .describe(
        "Present (true) when any of the days comes from the sample provider: its forecasts' errors, and so their skill, are simulated.",
      ),
    days: z.literal('UTC').describe('Days are UTC days, as daily rows are by default.'),
    latest: Day.nullable().describe('The latest day with data: the window ends there, and the outlook is issued the day after.'),
    window: z.object({ days: z.number().int().min(1), from: Day.nullable(), to: Day.nullable() }),
    min_pairs: z.number().int().describe('No score is given from fewer paired days; the tables are.'),
    bootstrap: Bootstrap,
    archive: ForecastArchive,
    categories: z.array(CategorySkill),
  }),
);

export type SkillCategory = z.infer<typeof SkillCategory>;
export type SkillScores = z.infer<typeof SkillScores>;
export type SideBySide = z.infer<typeof SideBySide>;
export type SkillYear = z.infer<typeof SkillYear>;
export type SkillLead = z.infer<typeof SkillLead>;
export type ServedOutlookDay = z.infer<typeof ServedOutlookDay>;
export type ServedOutlook = z.infer<typeof ServedOutlook>;
export type CategorySkill = z.infer<typeof CategorySkill>;
export type ForecastArchive = z.infer<typeof ForecastArchive>;
export type ForecastSkill = z.infer<typeof ForecastSkill>;
