/** A day's weather and air quality. */
import * as z from 'zod';
import { named } from '../schema-names.js';
import { INTEGER_FIELDS, TEXT_FIELDS, WEATHER_FIELDS, type WeatherField, type WeatherValues } from '../weather.js';
import { DateTime, Day, num, rowProvenance } from './common-schemas.js';

const weatherField = (f: WeatherField) =>
  TEXT_FIELDS.has(f) ? z.string() : f === 'aqi' ? z.number().int().min(1).max(5) : INTEGER_FIELDS.has(f) ? z.number().int() : num;
/** Every measured field, optional: texts as strings, the rest as numbers. */
const weatherFields = Object.fromEntries(WEATHER_FIELDS.map((f) => [f, weatherField(f).optional()])) as unknown as {
  [K in WeatherField]: z.ZodOptional<z.ZodType<NonNullable<WeatherValues[K]>>>;
};

export const WeatherRow = named(
  'WeatherRow',
  'Daily weather and air quality; unmeasured fields are omitted, never null.',
  z.object({
    city_slug: z.string(),
    date: Day,
    ...weatherFields,
    aqi_us: z
      .number()
      .int()
      .min(0)
      .max(500)
      .optional()
      .describe(
        "The EPA's Air Quality Index (0-500) of the day's particulate matter, from the 24-hour PM2.5 and PM10 sub-indices (EPA-454/B-24-002, May 2024): the scale US weather apps show, where aqi is the provider's 1-5 scale. Absent without PM2.5 or PM10. An extension of the contract.",
      ),
    aqi_us_pollutant: z
      .enum(['PM2.5', 'PM10'])
      .optional()
      .describe('The pollutant whose sub-index is aqi_us. An extension of the contract.'),
    source: z.string().optional(),
    created_at: DateTime.optional(),
    ...rowProvenance,
  }),
);
export type WeatherRow = z.infer<typeof WeatherRow>;
