/**
 * What /api/alerts answers, as JSON: the form every other form (iCalendar, Atom, JSON Feed,
 * alert-formats.ts) is written from.
 */
import * as z from 'zod';
import { named } from '../../domain/schema-names.js';
import * as D from '../../domain/schemas.js';
import { DateTime, Day } from '../../domain/schemas.js';
import { CATEGORIES } from '../../domain/species/risk.js';
import { provenance } from '../contract/answer-fields.js';

const AlertOutlookDay = named(
  'AlertOutlookDay',
  "A date beyond the forecast: each watched category's probability of reaching min, from the outlook.",
  z.object({
    date: Day,
    lead: z.number().int().min(0).max(7).describe("Days after the outlook's issue day."),
    categories: z.array(
      z.object({
        category: D.AlertCategoryName,
        probability: z
          .number()
          .min(0)
          .max(1)
          .nullable()
          .describe('The probability of min or above; null when no earlier year holds a day around the date.'),
        served: z.enum(['outlook', 'climatology']),
        rpss: z.number().nullable(),
      }),
    ),
  }),
);
export const AlertsResponse = named(
  'AlertsResponse',
  "The local days the forecast's hours touch on which a watched category reaches min, with the forecast's freshness.",
  z.object({
    city: z.string(),
    name: z.string(),
    state: z.string(),
    timezone: z.string(),
    min: D.AlertLevel,
    categories: z.array(D.AlertCategoryName).describe('The categories watched (none when only species= is given).'),
    species: z
      .array(z.object({ category: z.enum(CATEGORIES), name: z.string(), slug: z.string() }))
      .describe("The allergens watched (species=), each graded on its category's NAB range; empty when none is. An extension."),
    // With simulated, every calendar event and feed entry says the values are invented too.
    ...provenance,
    source: z.string(),
    stale: z.boolean(),
    quotaExhausted: z.literal(true).optional(),
    fetchedAt: DateTime.nullable(),
    dates: z.array(Day).describe("The local dates the forecast's hours touch, each checked."),
    alerts: z.array(D.Alert),
    outlook: z
      .array(AlertOutlookDay)
      .optional()
      .describe(
        "The JSON form only: the dates after the forecast's, to 7 days ahead, with each watched category's probability of reaching min from the outlook (docs/data.md, \"The outlook\"); absent when no render has made one. Calendars and feeds carry the forecast's alerts only. An extension.",
      ),
  }),
);

/** The JSON form, which the other forms are written from. */
export type AlertsAnswer = z.infer<typeof AlertsResponse>;

/** A date beyond the forecast, as the JSON form gives it. */
export type AlertOutlook = z.infer<typeof AlertOutlookDay>;
