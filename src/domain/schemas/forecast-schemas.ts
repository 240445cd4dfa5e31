/** A forecast's hours and days, and how many of a day's hours it holds. */
import * as z from 'zod';
import { named } from '../schema-names.js';
import { DateTime, dayHourCount, numOrNull, pollenValues, risks, Species } from './common-schemas.js';
import { DailyPollen } from './pollen-schemas.js';

export const ForecastPollen = named(
  'ForecastPollen',
  'One forecast hour; the zone field is tz.',
  z.object({
    ts: DateTime,
    ...pollenValues,
    total: numOrNull,
    species: Species,
    ...risks,
    tz: z.string().nullable(),
  }),
);
export type ForecastPollen = z.infer<typeof ForecastPollen>;

export const ForecastDay = named(
  'ForecastDay',
  "One (UTC or local) day the forecast touches: the daily-row fields over its forecast hours, how many there are, and the day's UTC offset at its start.",
  DailyPollen.omit({ hours: true }).extend({ hours: dayHourCount, tz: z.string().regex(/^[+-]\d{2}:\d{2}$/) }),
);
export type ForecastDay = z.infer<typeof ForecastDay>;

/** How many of a local day's hours a forecast holds, as alerts and the forecast map say it. */
export const forecastHoursHeld = z
  .number()
  .int()
  .min(0)
  .max(25)
  .describe("How many of the day's hours the forecast holds (today: the hours left); 0 for a provider that forecast the day as one value.");
