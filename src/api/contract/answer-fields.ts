/**
 * Fields several answers carry besides their rows (local days, where the values come from) and a
 * city as answers list it. The rows themselves are the domain's (domain/schemas.ts); each endpoint
 * defines its own body beside its route.
 */
import * as z from 'zod';
import type { City as DomainCity } from '../../domain/cities.js';
import type { CityRow } from '../../domain/schemas.js';

/** In a body answering `timezone=local`: an extension of the contract (docs/decisions.md, "Local days"). */
export const localDays = {
  timezone: z
    .literal('local')
    .optional()
    .describe(
      "Present when the request asked for timezone=local: days are each city's local calendar days (timestamps stay UTC instants).",
    ),
};

/**
 * Where an answer's values come from, in every JSON answer that carries values (an extension of
 * the contract; docs/api.md, "Where the values come from"): the provider as the store records it,
 * and on the bundled sample provider `simulated: true`, so that nobody reads invented values as
 * measurements, whichever endpoint or MCP tool they came through.
 */
export const provenance = {
  provider: z
    .string()
    .nullable()
    .describe(
      "The id of the provider the answer's values come from, as the store records each day's: the pollen provider for pollen answers, the weather provider for weather answers (sample, ambee, atmospore, weatherapi, open-meteo, openweathermap). null while nothing is stored, and when the values come from several providers: then `providers` lists them and each row names its own.",
    ),
  providers: z
    .array(z.string())
    .optional()
    .describe(
      "Present only when the answer's values come from more than one provider (a store some of whose days another provider replaced): each of them, in the order the rows first name them. Each row then carries its own `providers` (a local day made of two providers' hours names both).",
    ),
  simulated: z
    .literal(true)
    .optional()
    .describe(
      'Present (true) when any of the values comes from the bundled sample provider, whose values are invented for demonstration: never use them for health decisions. Absent when every value comes from a real provider.',
    ),
};

export { type Provenance, provenanceOf } from '../../domain/provenance.js';

/** A city as answers give it (/api/cities, /api/nearest). */
export const cityRow = (c: DomainCity): CityRow => ({
  name: c.name,
  slug: c.slug,
  state: c.state,
  lat: c.lat,
  lon: c.lon,
  timezone: c.timezone,
});

/**
 * In an answer of hours whose day a provider gave as one value (Atmospore gives days, not hours):
 * the rows stay empty, never hours made from the day, and this says why and where the day is.
 */
export const dailyOnly = {
  daily_only: z
    .object({
      provider: z.string().describe('The provider that gave the day as one value.'),
      note: z.string().describe('Why the rows are empty, and the request whose daily row holds the day.'),
    })
    .optional()
    .describe(
      "Present when the day has no hours because its provider gives one value a day (atmospore): rows is empty, and the day's values are in the city's daily rows.",
    ),
};

/** The `daily_only` of a day a provider gave as one value: what it is, and where to read it. */
export const dailyOnlyOf = (provider: string, city: string, local: boolean): z.infer<typeof dailyOnly.daily_only> => ({
  provider,
  note: `${provider} gives one value a day, not hours: the day is a daily row of /api/pollen?city=${city}${local ? '&timezone=local' : ''}`,
});
