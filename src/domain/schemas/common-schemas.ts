/** The building blocks every answer's schema shares: days and instants, a level, a species payload, a city, and the fields rows have in common. */
import * as z from 'zod';
import { named } from '../schema-names.js';
import { RISK_LABELS } from '../species/risk.js';

export const num = z.number();
export const numOrNull = num.nullable();
/** A calendar day, `YYYY-MM-DD`: the one date schema of every answer. */
export const Day = z.iso.date();
/** An instant, as answers write it: UTC, milliseconds. */
export const DateTime = z.iso.datetime();

export const PollenRisk = named('PollenRisk', 'NAB risk label; null when the value is missing.', z.enum(RISK_LABELS).nullable());
export type PollenRisk = z.infer<typeof PollenRisk>;

export const Species = named(
  'Species',
  'Provider species payload: category -> allergen -> grains/m³, or category -> number (for example Others). Null when not supplied.',
  z.record(z.string(), z.union([numOrNull, z.record(z.string(), numOrNull)])).nullable(),
);

export const City = named(
  'City',
  'A supported city.',
  z.object({
    name: z.string(),
    slug: z.string(),
    // An extension of the contract: several US cities share a name (Columbus, Springfield, Aurora).
    state: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .describe("The USPS code of the city's state, or DC: tells apart cities that share a name. An extension of the contract."),
    lat: z
      .number()
      .min(-90)
      .max(90)
      .describe('Latitude of the point the providers are asked for, WGS84 decimal degrees. An extension of the contract.'),
    lon: z.number().min(-180).max(180).describe('Longitude, WGS84 decimal degrees. An extension of the contract.'),
    timezone: z.string().describe('IANA time zone, whose days timezone=local cuts. An extension of the contract.'),
  }),
);
export type CityRow = z.infer<typeof City>;

export const pollenValues = {
  tree: numOrNull,
  grass: numOrNull,
  weed: numOrNull,
};

export const risks = { risk_tree: PollenRisk, risk_grass: PollenRisk, risk_weed: PollenRisk };

/** A daily row's level: graded before its mean is rounded, which can make a 0 Low. */
export const dailyRisk = (category: string) =>
  PollenRisk.describe(
    `NAB level of the day's mean ${category}, graded before rounding, on its highest allergen where the species have numbers: a day whose ${category} rounds to 0 can be Low.`,
  );
export const dailyRisks = { risk_tree: dailyRisk('tree'), risk_grass: dailyRisk('grass'), risk_weed: dailyRisk('weed') };

/** How many hours a local day holds (23, 24 or 25; fewer while its last hours are not ingested yet; 0 for a day its provider gave as one value). */
export const dayHourCount = z.number().int().min(0).max(25);

/** On each row of an answer whose values come from more than one provider (provenance.ts): that row's. */
export const rowProvenance = {
  providers: z
    .array(z.string())
    .optional()
    .describe("Present only when the answer's values come from more than one provider: the providers of this row's values."),
  simulated: z
    .literal(true)
    .optional()
    .describe("Present (true), beside providers, when the row's values include the sample provider's invented ones."),
};
