/** Arguments several MCP tools share, described for an agent. */
import * as z from 'zod';

export const citySlug = z.string().describe('City slug, for example "tulsa"; list_cities gives them all.');
export const utcDay = z.string().describe('UTC date, YYYY-MM-DD.');
export const cutDay = z.string().describe('Date, YYYY-MM-DD: a UTC day, or with timezone "local" each city\'s local day.');
export const timezoneArg = z
  .enum(['UTC', 'local'])
  .optional()
  .describe(
    '"UTC" (default) or "local": cut days at each city\'s local midnight in its own time zone, daylight saving included (timestamps stay UTC).',
  );
