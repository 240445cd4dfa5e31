/**
 * The rows and resources several endpoints answer, named for the OpenAPI document: the domain
 * defines them (domain/schemas.ts). Each endpoint names its own bodies and errors beside its route.
 */
import * as z from 'zod';
import * as D from '../domain/schemas.js';
import { named } from './named.js';

export const PollenRisk = named('PollenRisk', 'NAB risk label; null when the value is missing.', D.PollenRisk);
export const Species = named(
  'Species',
  'Provider species payload: category -> allergen -> grains/m³, or category -> number (for example Others). Null when not supplied.',
  D.Species,
);
export const City = named('City', 'A supported city.', D.City);
/** In a body answering `timezone=local`: an extension of the contract (docs/decisions.md, "Local days"). */
export const localDays = {
  timezone: z
    .literal('local')
    .optional()
    .describe(
      "Present when the request asked for timezone=local: days are each city's local calendar days (timestamps stay UTC instants).",
    ),
};
export const HourlyPollen = named('HourlyPollen', 'One hour of observations (grains/m³).', D.HourlyPollen);
export const DailyPollen = named(
  'DailyPollen',
  'Daily means (rounded; risks grade the unrounded means by the highest species mean) with the daily peaks.',
  D.DailyPollen,
);
