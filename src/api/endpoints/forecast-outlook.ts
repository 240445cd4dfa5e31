/**
 * The outlook days answers add beyond the forecast's 48 hours (docs/data.md, "The outlook"): from
 * the outlook file a render leaves for the forecast function (served/outlook-file.ts), each date's
 * probability of each NAB level for each category, as the outlook was issued and kept: the
 * outlook's where it had beaten climatology at that lead (its RPSS interval above 0) over the last 90 days, else
 * climatology's, with why. /api/forecast?days= and /api/alerts read them.
 */
import * as z from 'zod';
import type { OutlookFile } from '../../deploy-data/outlook-file.js';
import { dayNumber, dayString } from '../../domain/dates.js';
import { named } from '../../domain/schema-names.js';
import * as D from '../../domain/schemas.js';
import { Day } from '../../domain/schemas.js';
import { RISK_LABELS, type Risk } from '../../domain/species/risk.js';
import { SkillCategory } from '../../domain/verification/skill-schemas.js';

export const OutlookCategory = named(
  'OutlookCategory',
  "One category's outlook on a date: the probability of each NAB level, and which probabilities they are.",
  z.object({
    category: SkillCategory,
    probabilities: D.LevelProbabilities.nullable().describe('Null when no earlier year holds a day around the date.'),
    most_likely: z.enum(RISK_LABELS).nullable().describe('The level with the highest probability (the lower one on a tie).'),
    high_or_above: z.number().min(0).max(1).nullable().describe('The probability of High or Very High.'),
    served: z
      .enum(['outlook', 'climatology'])
      .describe(
        "The outlook's probabilities, or climatology's (the usual for the season) where the outlook has not beaten it at this lead (its RPSS interval above 0) over the last 90 days.",
      ),
    why: z.string().describe("Why these probabilities are served, in a sentence: the outlook's skill when it was issued."),
    rpss: z
      .number()
      .nullable()
      .describe("The outlook's ranked probability skill score against climatology at this lead, over the last 90 days when it was issued."),
    rpss_interval: D.Interval.describe('Its 95% interval (moving-block bootstrap), as low and high.'),
    basis: D.Outlook.shape.basis,
  }),
);

export const OutlookDate = named(
  'OutlookDate',
  "A date of the outlook: its lead from the outlook's issue day, and each category's probabilities.",
  z.object({ date: Day, lead: z.number().int().min(0).max(7), categories: z.array(OutlookCategory) }),
);

export const ForecastOutlook = named(
  'ForecastOutlook',
  'The outlook to the days asked for: issued the day after the latest data day a render held, from the earlier years\' days around each date, moved by this year\'s season timing and scaled by the recent anomaly where that beat climatology (docs/data.md, "The outlook").',
  z.object({
    issued: Day.describe("The outlook's issue day: it read every day before."),
    dates: z.array(OutlookDate).describe('Each date asked for that the outlook reaches (its issue day to 7 days after).'),
  }),
);
export type ForecastOutlook = z.infer<typeof ForecastOutlook>;
export type OutlookCategory = z.infer<typeof OutlookCategory>;

/** The probability of `level` or a higher one. */
export const atOrAbove = (p: D.LevelProbabilities, level: Risk): number =>
  RISK_LABELS.slice(RISK_LABELS.indexOf(level)).reduce((sum, l) => sum + p[l], 0);

/** The most likely level, and the probability of High or above. */
function summary(p: D.LevelProbabilities | null): { most_likely: Risk | null; high_or_above: number | null } {
  if (!p) return { most_likely: null, high_or_above: null };
  const most = RISK_LABELS.reduce((best, level) => (p[level] > p[best] ? level : best), RISK_LABELS[0]);
  return { most_likely: most, high_or_above: atOrAbove(p, 'High') };
}

/**
 * A city's outlook on the dates from `from` to `to` (day numbers, inclusive) that it reaches;
 * null when no render left an outlook of the city.
 */
export function outlookDates(file: OutlookFile | undefined, city: string, from: number, to: number): ForecastOutlook | null {
  const byCategory = file?.cities[city];
  if (!file?.issued || !byCategory) return null;
  const issued = dayNumber(file.issued);
  const dates: ForecastOutlook['dates'] = [];
  for (let day = Math.max(from, issued); day <= to; day++) {
    const categories = Object.entries(byCategory).flatMap(([category, o]) => {
      const d = o.days.find((x) => x.date === dayString(day));
      if (!d) return [];
      const c: OutlookCategory = {
        category: category as OutlookCategory['category'],
        probabilities: d.probabilities,
        ...summary(d.probabilities),
        served: d.served,
        why: d.why,
        rpss: d.rpss,
        rpss_interval: d.rpss_interval,
        basis: d.served === 'climatology' ? 'climatology' : o.basis,
      };
      return [c];
    });
    if (categories.length > 0) dates.push({ date: dayString(day), lead: day - issued, categories });
  }
  return { issued: file.issued, dates };
}
