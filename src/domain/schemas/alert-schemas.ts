/** An alert: a day at or above a level for a category, and what it says. */
import * as z from 'zod';
import { named } from '../schema-names.js';
import { CATEGORIES, GRADED } from '../species/risk.js';
import { Day, num, numOrNull } from './common-schemas.js';
import { forecastHoursHeld } from './forecast-schemas.js';

export const AlertLevel = z.enum(['Low', 'Moderate', 'High', 'Very High']);

export const AlertCategoryName = z.enum(GRADED);

export const Alert = named(
  'Alert',
  "One local day of the forecast on which a watched category's or allergen's worst hour reaches min.",
  z.object({
    id: z
      .string()
      .regex(/^urn:uuid:[0-9a-f-]{36}$/)
      .describe(
        'A name-based UUID (version 5) of city, date, min, categories and species: the same in every answer, and the UID of the calendar event (without urn:uuid:).',
      ),
    date: Day.describe("The city's local date."),
    tz: z
      .string()
      .regex(/^[+-]\d{2}:\d{2}$/)
      .describe('The UTC offset at the start of the local day.'),
    hours: forecastHoursHeld,
    categories: z
      .array(
        z.object({
          category: AlertCategoryName,
          risk: AlertLevel.describe("The day's worst hourly risk (ragweed: Weed.Ragweed graded with the weed thresholds)."),
          peak: numOrNull.describe("The day's highest hourly value, grains/m³."),
        }),
      )
      .describe('The watched categories that reach min (empty when only a watched allergen does).'),
    species: z
      .array(
        z.object({
          category: z.enum(CATEGORIES).describe("The allergen's category, whose NAB range grades it."),
          name: z.string().describe("The provider's name of the allergen, such as Oak."),
          slug: z.string().describe('Its name in species=, such as oak.'),
          risk: AlertLevel.describe(
            "The day's worst hourly risk of this allergen alone, graded on its category's NAB range (NAB publishes ranges for categories, not single plants).",
          ),
          peak: numOrNull.describe("The allergen's highest hourly value of the day, grains/m³."),
        }),
      )
      .describe('The watched allergens (species=) that reach min; empty when the subscription watches none. An extension.'),
    top_species: z
      .array(z.object({ category: z.string(), name: z.string(), peak: num }))
      .max(3)
      .describe("The day's allergens with the highest hourly values, highest first."),
    summary: z.string().describe('One line for a notification.'),
  }),
);
export type Alert = z.infer<typeof Alert>;
