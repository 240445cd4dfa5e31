/**
 * The MCP server: read-only tools that ask the same handlers as the HTTP API, so an agent and a
 * browser get the same answers. Each tool returns `structuredContent` and a JSON text copy.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { ApiContext } from '../api/handler.js';
import { respond } from '../api/http.js';
import { API_VERSION } from '../api/openapi.js';
import * as S from '../api/schemas.js';
import { cityRow } from '../api/cities.js';
import { MAX_NEAREST } from '../api/nearest.js';
import { citiesByName, MAX_NAME_MATCHES, NameQueryError, parseNameQuery, type NameQuery } from '../domain/city-search.js';
import { ALERT_CATEGORIES, ALERT_LEVELS, RISK_LABELS, THRESHOLDS } from '../domain/risk.js';

/** Rows one `get_pollen_range` call returns at most; the HTTP endpoint goes to 50,000. */
export const MCP_RANGE_CAP = 2000;

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false } as const;
const citySlug = z.string().describe('City slug, for example "tulsa"; list_cities gives them all.');
const date = z.string().describe('UTC date, YYYY-MM-DD.');
const day = z.string().describe('Date, YYYY-MM-DD: a UTC day, or with timezone "local" each city\'s local day.');
const timezone = z
  .enum(['UTC', 'local'])
  .optional()
  .describe(
    '"UTC" (default) or "local": cut days at each city\'s local midnight in its own time zone, daylight saving included (timestamps stay UTC).',
  );

type Args = Record<string, string | number | undefined>;

/** Calls the API and turns its answer into a tool result; an API error becomes a tool error naming the argument. */
async function ask(ctx: ApiContext, path: string, args: Args, argNames: Record<string, string> = {}): Promise<CallToolResult> {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(args)) if (v !== undefined) query.set(k, String(v));
  const r = await respond({ method: 'GET', path, query }, ctx);
  const text = typeof r.body === 'string' ? r.body : [...r.body].join('');
  const body = JSON.parse(text) as Record<string, unknown>;
  if (r.status !== 200) {
    let message = String(body.error).replace(/parameter '(\w+)'/, (_, p: string) => `argument '${argNames[p] ?? p}'`);
    if (body.code === 'UNSUPPORTED_CITY')
      message = `${message} (argument '${argNames.city ?? 'city'}': call list_cities for the supported slugs)`;
    if (body.code === 'UNKNOWN_ZIP') message = `${message} (argument 'zip')`;
    return { isError: true, content: [{ type: 'text', text: message }] };
  }
  return { structuredContent: body, content: [{ type: 'text', text }] };
}

const EXPLANATION = {
  scale: 'NAB (allergy-reporting bureau) risk labels, grains/m³',
  labels: [...RISK_LABELS],
  thresholds: { tree: [...THRESHOLDS.tree], grass: [...THRESHOLDS.grass], weed: [...THRESHOLDS.weed], ragweed: [...THRESHOLDS.ragweed] },
  rules: [
    'null (no measurement) stays null; 0 is None.',
    'Below t1 is Low; from t1 Moderate; from t2 High; from t3 Very High. A value equal to a threshold takes the higher label.',
    'A category is graded by its highest single allergen when the species object has numbers for it, otherwise by the category value.',
    'Daily rows average the day\'s hours (a UTC day, or with timezone "local" the city\'s local day), nulls skipped, rounded; risk_* grade the unrounded means; peak_* and peak_risk_* give the worst hour.',
    'Map and cross-city values are daily maxima; map risks are the worst hourly risk; sev_* run from 0 (null or None) to 4 (Very High).',
  ],
};

/** A fresh server with every tool; the HTTP transport builds one per request. */
export function createMcpServer(ctx: ApiContext): McpServer {
  const server = new McpServer({ name: 'pollen-api', version: API_VERSION });

  server.registerTool(
    'list_cities',
    {
      title: 'List supported cities',
      description: 'Every supported US city with its slug. Call this first: every other tool takes these slugs.',
      outputSchema: S.CitiesResponse,
      annotations: READ_ONLY,
    },
    () => ask(ctx, '/api/cities', {}),
  );

  server.registerTool(
    'find_city',
    {
      title: 'Find a city by name, position or ZIP code',
      description:
        'Use this first when the user names a place, gives coordinates or a US ZIP code: it gives the city slugs the other tools take. Give one of: name (case and accents ignored; exact names first, then names starting with it, then names containing it; "Columbus, OH" or the state argument narrows it; no distances), lat and lon, or zip (the served cities within max_km, nearest first, with distance_km, as GET /api/nearest answers).',
      inputSchema: {
        name: z.string().optional().describe('A city name, such as "St. Louis" or "Columbus, OH".'),
        state: z.string().optional().describe('USPS code of a state or DC, such as "OH": only with name.'),
        lat: z.number().min(-90).max(90).optional().describe('Latitude, WGS84 decimal degrees (with lon).'),
        lon: z.number().min(-180).max(180).optional().describe('Longitude, WGS84 decimal degrees (with lat).'),
        zip: z
          .string()
          .optional()
          .describe('A five-digit US ZIP code, such as "78701"; post-office-box ZIP codes have no area and are not found.'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_NEAREST)
          .optional()
          .describe(`Most cities, 1 to ${MAX_NEAREST}: by default 1 by position or ZIP, ${MAX_NAME_MATCHES} by name.`),
        max_km: z
          .number()
          .optional()
          .describe('With lat and lon or zip: the farthest a city may be, above 0 and at most 1000 km (default 150).'),
      },
      outputSchema: S.FindCityResult,
      annotations: READ_ONLY,
    },
    async ({ name, state, lat, lon, zip, limit, max_km }) => {
      const fail = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });
      if (name === undefined) {
        if (state !== undefined) return fail("Argument 'state' narrows a name: give it with argument 'name'.");
        if (lat === undefined && lon === undefined && zip === undefined)
          return fail("Give argument 'name', arguments 'lat' and 'lon', or argument 'zip'.");
        // The API takes plain decimals: a tiny number would print with an exponent (1e-7).
        const decimal = (v: number | undefined) => (v !== undefined && /e/i.test(String(v)) ? v.toFixed(20) : v);
        return ask(ctx, '/api/nearest', { lat: decimal(lat), lon: decimal(lon), zip, limit, max_km: decimal(max_km) });
      }
      const other = (['lat', 'lon', 'zip', 'max_km'] as const).find((k) => ({ lat, lon, zip, max_km })[k] !== undefined);
      if (other) return fail(`Argument '${other}' does not go with argument 'name': search by name, by lat and lon, or by zip.`);
      let query: NameQuery;
      try {
        query = parseNameQuery(name, state);
      } catch (error) {
        if (error instanceof NameQueryError) return fail(`Invalid argument '${error.argument}': expected ${error.message}`);
        throw error;
      }
      const found = citiesByName(ctx.cities.list, query)
        .slice(0, limit ?? MAX_NAME_MATCHES)
        .map(cityRow);
      const body =
        found.length > 0
          ? { cities: found }
          : {
              cities: found,
              hint: `No served city is named like "${name}"${query.state ? ` in ${query.state}` : ''}: try lat and lon or zip (the nearest served city), or list_cities.`,
            };
      return { structuredContent: body, content: [{ type: 'text', text: JSON.stringify(body) }] };
    },
  );

  server.registerTool(
    'get_latest_date',
    {
      title: 'Latest date with data',
      description: 'The latest UTC date with pollen observations; use it as the default date.',
      outputSchema: S.LatestDateResponse,
      annotations: READ_ONLY,
    },
    () => ask(ctx, '/api/latest-date', {}),
  );

  server.registerTool(
    'get_pollen',
    {
      title: 'Pollen for a city and/or date',
      description:
        'city and date: the hourly rows of that day (tree, grass, weed, total in grains/m³, species, NAB risk). city only: up to 720 daily rows, newest first, with daily peaks. date only: one row per city (daily maxima). Neither: the latest date. Days are UTC days unless timezone is "local" (then daily rows say how many hours each local day holds).',
      inputSchema: { city: citySlug.optional(), date: day.optional(), timezone },
      outputSchema: z.object({
        city: z.string().optional(),
        date: z.string().optional(),
        timezone: z.literal('local').optional(),
        rows: z.array(z.union([S.HourlyPollen, S.DailyPollen, S.CrossCityPollen])),
      }),
      annotations: READ_ONLY,
    },
    (a) => ask(ctx, '/api/pollen', a),
  );

  server.registerTool(
    'get_pollen_range',
    {
      title: 'Pollen over a time window',
      description: `Hourly (aggregate "none") or daily ("day") rows for a window: from inclusive, to exclusive, each a YYYY-MM-DD date or an RFC 3339 date-time with offset. At most ${MCP_RANGE_CAP} rows per call; when truncated is true, narrow the window or the cities, or use aggregate "day".`,
      inputSchema: {
        from: z.string().describe('Start (inclusive): YYYY-MM-DD or RFC 3339, e.g. 2025-04-01T06:00:00-05:00.'),
        to: z.string().describe('End (exclusive), later than from.'),
        cities: z.array(citySlug).optional().describe('City slugs; all cities when omitted.'),
        aggregate: z.enum(['none', 'day']).optional().describe('"none" (hourly, default) or "day".'),
        timezone: timezone.describe(
          '"UTC" (default) or "local": aggregate "day" groups by each city\'s local day, and a date-only from/to means each city\'s local midnight.',
        ),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MCP_RANGE_CAP)
          .optional()
          .describe(`Most rows, 1 to ${MCP_RANGE_CAP} (default ${MCP_RANGE_CAP}).`),
        after: z
          .string()
          .optional()
          .describe("Continue a truncated answer: 'city,periodStart' of its last row (the after parameter of its next link)."),
      },
      outputSchema: S.PollenRangeResponse.extend({ hint: z.string().optional() }),
      annotations: READ_ONLY,
    },
    async ({ cities, limit, ...rest }) => {
      const result = await ask(
        ctx,
        '/api/pollen-range',
        { ...rest, city: cities?.join(','), limit: limit ?? MCP_RANGE_CAP },
        { city: 'cities' },
      );
      const body = result.structuredContent as { truncated?: boolean; rows?: Array<{ city: string; periodStart: string }> } | undefined;
      if (!body?.truncated) return result;
      const last = body.rows?.at(-1);
      const more = last ? `call again with after "${last.city},${last.periodStart}", ` : '';
      const withHint = {
        ...body,
        hint: `More rows than this call returns (${limit ?? MCP_RANGE_CAP}): ${more}narrow from/to or cities, use aggregate "day", or fetch /api/pollen-range over HTTP (up to 50000 rows).`,
      };
      return { structuredContent: withHint, content: [{ type: 'text', text: JSON.stringify(withHint) }] };
    },
  );

  server.registerTool(
    'get_pollen_map',
    {
      title: 'Map of every city on a date',
      description:
        'GeoJSON points, one per city with data: daily maxima of tree, grass, weed and ragweed, their NAB risks and severities (0-4), and a 3-day series. date is YYYY-MM-DD or "latest" (default); with timezone "local" each city\'s own local day.',
      inputSchema: { date: z.string().optional().describe('YYYY-MM-DD or "latest".'), timezone },
      outputSchema: S.MapCollection,
      annotations: READ_ONLY,
    },
    (a) => ask(ctx, '/api/map-data', a),
  );

  server.registerTool(
    'get_forecast',
    {
      title: '48-hour pollen forecast',
      description:
        'Hourly forecast from the current hour, 48 hours; with aggregate "day", one row per day those hours touch (today and tomorrow), in UTC days or with timezone "local" the city\'s local days. stale is true when the provider could not refresh it and a cached forecast is shown (quotaExhausted when its quota is spent).',
      inputSchema: {
        city: citySlug,
        aggregate: z.enum(['none', 'day']).optional().describe('"none" (hourly, default) or "day".'),
        timezone,
      },
      outputSchema: S.ForecastResponse,
      annotations: { ...READ_ONLY, idempotentHint: true, openWorldHint: true },
    },
    (a) => ask(ctx, '/api/forecast', a),
  );

  server.registerTool(
    'get_alerts',
    {
      title: 'Pollen alerts for the next two days',
      description:
        "The city's local days in the 48-hour forecast (today's remaining hours included) on which a category's worst hour reaches min (default High): for each, the date, the categories that reach it with their risk and highest hourly value, the day's top allergens and a one-line summary to pass on. An empty alerts list means no day reaches min. People can subscribe to the same alerts in a calendar (/api/alerts?format=ics) or a feed reader (format=atom or jsonfeed).",
      inputSchema: {
        city: citySlug,
        min: z
          .enum(ALERT_LEVELS)
          .optional()
          .describe('The lowest risk that makes an alert: "Low", "Moderate", "High" (default) or "Very High".'),
        categories: z
          .array(z.enum(ALERT_CATEGORIES))
          .min(1)
          .optional()
          .describe('Which to watch: tree, grass, weed, ragweed (the Weed.Ragweed allergen); all by default.'),
      },
      outputSchema: S.AlertsResponse,
      annotations: { ...READ_ONLY, idempotentHint: true, openWorldHint: true },
    },
    ({ city, min, categories }) => ask(ctx, '/api/alerts', { city, min, categories: categories?.join(',') }),
  );

  server.registerTool(
    'get_weather',
    {
      title: 'Weather and air quality',
      description:
        'Daily weather and AQI (1 good to 5 very poor). city only: up to 365 days, newest first. city and date: that day. date only: a compact row per city. Neither: the latest date. Unmeasured fields are omitted.',
      inputSchema: { city: citySlug.optional(), date: date.optional() },
      outputSchema: S.WeatherResponse,
      annotations: READ_ONLY,
    },
    (a) => ask(ctx, '/api/weather', a),
  );

  server.registerTool(
    'get_bulk_files',
    {
      title: 'Bulk files of the whole history',
      description:
        "The served history as monthly files for analysts: pollen-hourly, pollen-daily and weather-daily, each month as Parquet (typed columns, one row group per city; DuckDB, pandas, Polars and Arrow read it, over HTTP with range requests too) and as gzip CSV. Gives each file's path on this deployment, month, rows, bytes and SHA-256, and every column's type, unit and meaning. Prefer these to many get_pollen_range calls for long windows.",
      outputSchema: S.BulkManifest,
      annotations: READ_ONLY,
    },
    () => {
      const manifest = ctx.bulkIndex;
      if (!manifest)
        return { isError: true, content: [{ type: 'text', text: 'No bulk files: this deployment has not been rendered yet.' }] };
      return {
        structuredContent: manifest as unknown as Record<string, unknown>,
        content: [{ type: 'text', text: JSON.stringify(manifest) }],
      };
    },
  );

  server.registerTool(
    'explain_risk',
    {
      title: 'How risk levels are graded',
      description: 'The NAB thresholds per category and the rules that turn grains/m³ into None, Low, Moderate, High or Very High.',
      outputSchema: z.object({
        scale: z.string(),
        labels: z.array(z.string()),
        thresholds: z.record(z.string(), z.array(z.number())),
        rules: z.array(z.string()),
      }),
      annotations: READ_ONLY,
    },
    () => ({ structuredContent: EXPLANATION, content: [{ type: 'text', text: JSON.stringify(EXPLANATION) }] }),
  );

  return server;
}
