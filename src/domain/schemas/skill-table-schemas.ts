/** A forecast's scores against the observed levels, their intervals and verdicts, and the outlook's (docs/data.md, "Forecast skill"; domain/verification/score-sample.ts computes them). */
import * as z from 'zod';
import { named } from '../schema-names.js';
import { RISK_LABELS } from '../species/risk.js';
import { Day, num } from './common-schemas.js';

const score = (what: string) => num.nullable().describe(what);
const RiskLevelCounts = z.array(z.number().int().min(0)).length(RISK_LABELS.length);

export const Interval = z
  .array(num)
  .length(2)
  .nullable()
  .describe(
    'The 95% interval of the score: the 2.5% and 97.5% percentiles of the score over 1,000 moving-block bootstrap resamples of the days (blocks of 7 days); null without a score, or when too few resamples have one (score_reasons says which).',
  );

export const Verdict = named(
  'Verdict',
  'Whether a forecast did better than a reference over the same days: from the interval of the difference of their Gerrity scores (forecast minus reference) over the same resampled days (a paired bootstrap), not from whether their own intervals overlap.',
  z.object({
    reference: z
      .enum(['persistence', 'climatology'])
      .describe("persistence (yesterday's level) or climatology (the usual for the season)."),
    verdict: z
      .enum(['better', 'no better', 'worse'])
      .nullable()
      .describe(
        "better: the difference's interval lies above 0; worse: below 0; no better: it holds 0. null where either table has no Gerrity score (reason says why).",
      ),
    words: z.string().describe('The verdict in words: "better than yesterday\'s level", "no better than the usual for the season"...'),
    difference: score("The forecast's Gerrity score less the reference's, on the same days."),
    difference_interval: Interval,
    heidke_difference: score("The forecast's Heidke score less the reference's, on the same days."),
    note: z.string().nullable().describe("Where Heidke's and Gerrity's differences disagree on the sign, why: what each score counts."),
    reason: z.string().nullable().describe('Why there is no verdict.'),
  }),
);
export type Verdict = z.infer<typeof Verdict>;

export const SkillTable = named(
  'SkillTable',
  'How a forecast (or a reference forecast) did against what was observed: the contingency table over NAB levels and the scores made from it.',
  z
    .object({
      table: z
        .array(RiskLevelCounts)
        .length(RISK_LABELS.length)
        .describe(
          'The contingency table: table[f][o] counts the days forecast at level f and observed at level o, levels in NAB order None to Very High.',
        ),
      high: z
        .object({ hits: z.number().int().min(0), misses: z.number().int().min(0), false_alarms: z.number().int().min(0) })
        .describe('The event "High or above": days forecast and observed, observed but not forecast, forecast but not observed.'),
      heidke: score('Heidke skill score over the five levels: 1 perfect, 0 no better than chance.'),
      heidke_interval: Interval,
      gerrity: score(
        'Gerrity skill score over the ordered levels: 1 perfect, 0 for a constant or random forecast; misses by more levels cost more.',
      ),
      gerrity_interval: Interval,
      pod: score(
        'Probability of detection of High or above: the share of such observed days that were forecast (from 5 such days or more).',
      ),
      far: score(
        'False alarm ratio of High or above: the share of such forecast days that were not observed (from 5 observed such days or more).',
      ),
      spearman: score('Spearman rank correlation of forecast and observed daily means, unrounded (ties by mid-rank).'),
      rmse_log: score('Root mean square error of log10(1 + daily mean), forecast against observed, unrounded.'),
      score_reasons: z
        .record(z.string(), z.string())
        .describe(
          'Why a score or an interval is null although there are enough days: too few observed levels, days above None, or days at an observed level for a score of levels; too few High days for POD and FAR; every observed day None (no Spearman or RMSE).',
        ),
      verdicts: z
        .array(Verdict)
        .optional()
        .describe("A forecast's table only: its verdict against each reference compared on the same days."),
    })
    .describe(
      'How a forecast (or a reference forecast) did against what was observed, on the days of its comparison, with the table the scores come from. Scores are rounded to 6 decimals.',
    ),
);
export type SkillTable = z.infer<typeof SkillTable>;

export const LevelProbabilities = named(
  'LevelProbabilities',
  'The probability of each NAB level; they add up to 1.',
  z
    .object(Object.fromEntries(RISK_LABELS.map((r) => [r, z.number().min(0).max(1)])) as Record<(typeof RISK_LABELS)[number], z.ZodNumber>)
    .describe('The probability of each NAB level; they add up to 1.'),
);
export type LevelProbabilities = z.infer<typeof LevelProbabilities>;

export const OutlookDay = z.object({
  date: Day,
  lead: z.number().int().min(0).describe('Days after the issue day (0: the issue day).'),
  probabilities: LevelProbabilities.nullable(),
  members: z.number().int().min(0).describe('Earlier days the probabilities are counted from.'),
  anomaly_weight: z
    .number()
    .min(0)
    .max(1)
    .describe("The share of the current anomaly carried to this lead (0: climatology's spread as it is)."),
  reason: z.string().nullable().describe('Why probabilities is null: no earlier year holds a day around this one.'),
});
export type OutlookDay = z.infer<typeof OutlookDay>;

export const Outlook = z.object({
  category: z.string(),
  issued: Day.describe('The issue day: only days before it are read.'),
  basis: z
    .enum(['climatology', 'shifted climatology', 'climatology with anomaly', 'shifted climatology with anomaly'])
    .describe(
      "What the probabilities are: the earlier years' days around the same date; moved by this year's season timing; and scaled by how this year's recent days compare with them.",
    ),
  window_days: z.number().int().min(0).describe('Days either side of the same date in each earlier year.'),
  earlier_years: z.array(z.number().int()).describe('The years the days are taken from.'),
  shift_days: z.record(z.string(), z.number()).describe("This year's season timing against each earlier year, in days (positive: later)."),
  anomaly_log10: num
    .nullable()
    .describe('The mean of log10(1 + value) of the recent days, minus that of their climatology; null when too few recent days.'),
  anomaly_days: z.number().int().min(0).describe('Recent days the anomaly is the mean of.'),
  days: z.array(OutlookDay),
});
export type Outlook = z.infer<typeof Outlook>;

export const OutlookSkill = named(
  'OutlookSkill',
  "The outlook's ranked probability score against climatology's, over the same days.",
  z.object({
    days: z.number().int().min(0).describe('Days scored: each with the probabilities issued for it at this lead and an observed level.'),
    rps: score('Mean ranked probability score of the probabilities: 0 perfect, 1 all probability on the wrong end.'),
    rps_climatology: score('The same for climatology, as issued for the same days (the earlier years around the date, as they are).'),
    rpss: score('Ranked probability skill score against climatology: 1 - rps / rps_climatology; above 0 beats climatology.'),
    rpss_interval: Interval,
    beats_climatology: z
      .boolean()
      .nullable()
      .describe(
        'Whether it beat climatology beyond the uncertainty: rpss and the lower end of its 95% interval above 0; null without a score.',
      ),
    verdict: z
      .enum(['better', 'no better', 'worse'])
      .nullable()
      .describe(
        'Against climatology, from rpss_interval (RPSS is already a paired comparison: both scored on the same resampled days): better above 0, worse below 0, no better holding 0; null without an interval.',
      ),
    reason: z.string().nullable(),
  }),
);
export type OutlookSkill = z.infer<typeof OutlookSkill>;
