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
      "The id of the provider the answer's values come from, as the store records each day's: the pollen provider for pollen answers, the weather provider for weather answers (sample, ambee, open-meteo, openweathermap). null while nothing is stored, and when the values come from several providers: then `providers` lists them and each row names its own.",
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
