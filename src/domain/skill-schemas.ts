/**
 * The shapes of a city's forecast skill (docs/data.md, "Forecast skill", "The outlook"): the
 * scores of the forecast, of the references and of the outlook by lead day, over the trailing
 * window and each season year, and the outlook served now. forecast-skill.ts makes them.
 */
import * as z from 'zod';
import { LevelProbabilities, Outlook, OutlookSkill, SkillTable } from './schemas.js';

const Day = z.iso.date();

export const SkillCategory = z.enum(['tree', 'grass', 'weed', 'ragweed']);

export const SkillScores = z.object({
  from: Day,
  to: Day,
  forecast: SkillTable.describe(
    "The provider's forecast as issued: the last one issued on a day counts for each day it reached at this lead.",
  ),
  persistence: SkillTable.describe(
    'The last day observed before the issue day (at lead L, day T is forecast by day T - L - 1), over the same days.',
  ),
  climatology: SkillTable.describe('The median day of the earlier years within a week of the date, over the same days.'),
  reference_days: z
    .enum(['forecast', 'outlook'])
    .describe(
      'The days persistence and climatology are scored on: those the forecast is paired on (leads 0 to 2), or, at the leads no forecast reaches, those the outlook is paired on.',
    ),
  outlook: OutlookSkill.describe('The outlook issued on each day before, by ranked probability score against climatology.'),
});

export const SkillYear = SkillScores.extend({
  year: z.number().int().describe("The category's season year: the calendar year, or for tree the year from 1 October before."),
});

export const SkillLead = z.object({
  lead: z.number().int().min(0).max(7).describe('Days after the issue day: 0 the issue day, 1 the next day...'),
  window: SkillScores.describe('Over the trailing window (window.days days to the latest data day).'),
  years: z.array(SkillYear).describe('Over each season year the served days hold, oldest first.'),
});

export const ServedOutlookDay = z.object({
  date: Day,
  lead: z.number().int().min(0).max(7),
  probabilities: LevelProbabilities.nullable().describe(
    "The probability of each NAB level served: the outlook's, or climatology's where the outlook does not beat it.",
  ),
  served: z.enum(['outlook', 'climatology']).describe('Which probabilities are served.'),
  why: z.string().describe("Why these probabilities are served: the outlook's skill at this lead over the trailing window."),
  outlook: LevelProbabilities.nullable().describe("The outlook's own probabilities."),
  climatology: LevelProbabilities.nullable().describe("Climatology's: the earlier years' days within a week of the date, as they are."),
  rpss: z
    .number()
    .nullable()
    .describe("The outlook's ranked probability skill score against climatology at this lead over the trailing window."),
});

export const ServedOutlook = Outlook.omit({ days: true, category: true }).extend({
  days: z.array(ServedOutlookDay),
});

export const CategorySkill = z.object({
  category: SkillCategory,
  leads: z.array(SkillLead),
  outlook: ServedOutlook.describe('The outlook issued the day after the latest data day, reading every day to it.'),
});

export const ForecastArchive = z
  .object({
    forecasts: z.number().int().min(0).describe('Forecasts kept whose days fall in the served days.'),
    issue_days: z.number().int().min(0).describe('Days on which at least one of them was issued.'),
    first_issued: z.iso.datetime().nullable(),
    last_issued: z.iso.datetime().nullable(),
    by: z
      .object({ build: z.number().int().min(0), function: z.number().int().min(0), made_again: z.number().int().min(0) })
      .describe(
        "How they came: the build's own call, the forecast function's fetches between builds, or a provider's past forecast made again (the sample's).",
      ),
  })
  .describe('The forecasts the scores are made from.');

export const ForecastSkill = z.object({
  city: z.string(),
  provider: z.string().nullable().describe('The provider of the forecasts and the observed days.'),
  simulated: z
    .literal(true)
    .optional()
    .describe("Present (true) with the sample provider: its forecasts' errors, and so their skill, are simulated."),
  days: z.literal('UTC').describe('Days are UTC days, as daily rows are by default.'),
  latest: Day.nullable().describe('The latest day with data: the window ends there, and the outlook is issued the day after.'),
  window: z.object({ days: z.number().int().min(1), from: Day.nullable(), to: Day.nullable() }),
  min_pairs: z.number().int().describe('No score is given from fewer paired days; the tables are.'),
  archive: ForecastArchive,
  categories: z.array(CategorySkill),
});

export type SkillCategory = z.infer<typeof SkillCategory>;
export type SkillScores = z.infer<typeof SkillScores>;
export type SkillYear = z.infer<typeof SkillYear>;
export type SkillLead = z.infer<typeof SkillLead>;
export type ServedOutlookDay = z.infer<typeof ServedOutlookDay>;
export type ServedOutlook = z.infer<typeof ServedOutlook>;
export type CategorySkill = z.infer<typeof CategorySkill>;
export type ForecastArchive = z.infer<typeof ForecastArchive>;
export type ForecastSkill = z.infer<typeof ForecastSkill>;
