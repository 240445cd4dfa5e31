/** The OpenAPI 3.1 document, generated from the zod schemas the API is built on. */
import * as z from 'zod';
import { ALERT_CATEGORIES, ALERT_LEVELS, DEFAULT_LEVEL, THRESHOLDS } from '../domain/risk.js';
import { ALERT_FORMATS, ALERTS_EXPECTED } from './alerts.js';
import { API_TITLE } from './handler.js';
import { DEFAULT_HEALTH_MAX_AGE_HOURS } from '../settings.js';
import { MAX_DAILY_ROWS } from './pollen.js';
import { DEFAULT_MAX_KM, MAX_KM, MAX_NEAREST, NEAREST_EXPECTED } from './nearest.js';
import { EXPECTED } from './params.js';
import { DEFAULT_LIMIT, MAX_LIMIT, RANGE_EXPECTED } from './range-params.js';
import { registry } from './schemas.js';
import { MAX_WEATHER_ROWS } from './weather.js';

export const API_VERSION = '2.7.0';

type Json = Record<string, unknown>;
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

const METHODOLOGY = [
  `Risk follows NAB thresholds [t1, t2, t3] in grains/m³: tree ${THRESHOLDS.tree.join('/')}, grass ${THRESHOLDS.grass.join('/')}, weed and ragweed ${THRESHOLDS.weed.join('/')}.`,
  'null stays null; 0 is None; below t1 Low; from t1 Moderate; from t2 High; from t3 Very High (a threshold value takes the higher label).',
  'A category is graded by its highest single allergen when the species object has numbers for it, otherwise by the category value.',
  "Daily rows: rounded means of the UTC day's hours (nulls skipped); risk_* grade the unrounded means; peak_* and peak_risk_* give the worst hour.",
  'Cross-city rows and map features use daily category maxima; map risk_* are the worst hourly risk, sev_* are 0 (null/None) to 4 (Very High).',
  "Negative or non-numeric provider values are stored as missing. Dates are UTC calendar days unless timezone=local asks for each city's local days; date-times are UTC, YYYY-MM-DDTHH:mm:ss.sssZ.",
  "Local days (timezone=local on /api/pollen, /api/map-data, /api/pollen-range and /api/forecast, and the days of /api/alerts; an extension of the contract): each city's calendar day in its IANA zone, from local midnight to local midnight, daylight saving included (23 hours on the spring change, 25 on the autumn one); the same daily rules apply to its hours.",
].join(' ');

const param = (name: string, description: string, schema: Json, required = false): Json => ({
  name,
  in: 'query',
  required,
  description,
  schema,
});
const cityParam = param('city', `City slug (${EXPECTED.city}).`, { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' });
const dateParam = param('date', `UTC calendar date (${EXPECTED.date}).`, { type: 'string', format: 'date' });
const dayParam = param('date', `Calendar date (${EXPECTED.date}): a UTC day, or with timezone=local each city's local day.`, {
  type: 'string',
  format: 'date',
});
const timezoneParam = (what: string) =>
  param(
    'timezone',
    `${EXPECTED.timezone}: how days are cut. UTC (the default; answers as without the parameter) or local: ${what} An extension of the contract.`,
    { type: 'string', enum: ['UTC', 'local'], default: 'UTC' },
  );

const json = (schema: Json, type = 'application/json') => ({ content: { [type]: { schema } } });
const NO_DATA = 'No observations at all yet (an empty store): Error "No observations are available yet".';
const errors = (withCity: boolean, latest = false, withParameters = true): Json => ({
  ...(withParameters
    ? { '400': { description: "Invalid parameter: `Invalid parameter '<name>': expected ...`.", ...json(ref('Error')) } }
    : {}),
  ...(withCity
    ? {
        '404': {
          description: `Unsupported city (UNSUPPORTED_CITY).${latest ? ` Or, without city and date: ${NO_DATA}` : ''}`,
          ...json(latest ? { oneOf: [ref('UnsupportedCityError'), ref('Error')] } : ref('UnsupportedCityError')),
        },
      }
    : latest
      ? { '404': { description: NO_DATA, ...json(ref('Error')) } }
      : {}),
  '405': { description: 'Only GET, HEAD and OPTIONS are allowed.', ...json(ref('Error')) },
  '500': { description: 'Internal server error (sanitized).', ...json(ref('Error')) },
});
interface Operation {
  operationId: string;
  summary: string;
  description: string;
  parameters?: Json[];
  ok: Json;
  withCity?: boolean;
  type?: string;
  latest?: boolean;
}
const get = (o: Operation): Json => ({
  get: {
    operationId: o.operationId,
    summary: o.summary,
    description: o.description,
    parameters: o.parameters ?? [],
    responses: {
      '200': { description: 'OK. Cache-Control: public, max-age=300, s-maxage=300, stale-while-revalidate=600.', ...json(o.ok, o.type) },
      ...errors(o.withCity ?? false, o.latest, (o.parameters?.length ?? 0) > 0),
    },
  },
});

/** The whole document. */
export function openApiDocument(): Json {
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, target: 'draft-2020-12' });
  const components = Object.fromEntries(
    Object.entries(schemas).map(([id, s]) => {
      const { $schema: _s, $id: _i, ...rest } = s as Json;
      return [id, rest];
    }),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: API_TITLE,
      version: API_VERSION,
      license: { name: 'MIT', identifier: 'MIT' },
      description: `Read-only data for supported US cities. Version 2.2.1 of the contract describes the same endpoints. ${METHODOLOGY} Every response carries Access-Control-Allow-Origin: *; errors carry Cache-Control: no-store. Unknown parameters are ignored; when a parameter is repeated its last value counts (as Netlify's rules engine matches it). An MCP server is at /mcp. The whole served history is also static files for analysts: /data/bulk/index.json (schema BulkManifest) lists each month as Parquet and gzip CSV, with every column's type, unit and meaning.`,
    },
    // The deployment that serves this document; every endpoint is public, with no credential.
    servers: [{ url: '/', description: 'This deployment' }],
    security: [],
    paths: {
      '/api/cities': get({
        operationId: 'listCities',
        summary: 'Supported cities',
        description:
          'Every supported city, alphabetised by name, with its state, position (lat, lon) and IANA time zone (an extension of the contract).',
        ok: ref('CitiesResponse'),
      }),
      '/api/nearest': {
        get: {
          operationId: 'findNearestCities',
          summary: 'Cities nearest a point or a ZIP code',
          description: `The served cities within max_km of a point (lat and lon) or of a ZIP code's centroid (zip), nearest first: by distance_km (great-circle, on a sphere of radius 6371.0088 km, to 0.1 km) and then slug; fewer than limit when fewer are within max_km. ZIP codes are the Census Bureau's 2021 ZIP Code Tabulation Areas (33,791, with internal points as centroids): post-office-box and single-business ZIP codes have no area and give 404 UNKNOWN_ZIP. Each parameter may be given once; give either lat and lon or zip. Answers change only with a deploy (Netlify-CDN-Cache-Control keeps them until the next). An extension of the contract.`,
          parameters: [
            param('lat', `Latitude: ${NEAREST_EXPECTED.lat}. With lon.`, { type: 'number', minimum: -90, maximum: 90 }),
            param('lon', `Longitude: ${NEAREST_EXPECTED.lon}. With lat.`, { type: 'number', minimum: -180, maximum: 180 }),
            param('zip', `Instead of lat and lon: ${NEAREST_EXPECTED.zip}.`, { type: 'string', pattern: '^[0-9]{5}$' }),
            param('limit', `Most cities, ${NEAREST_EXPECTED.limit}.`, { type: 'integer', minimum: 1, maximum: MAX_NEAREST, default: 1 }),
            param('max_km', `The farthest a city may be: ${NEAREST_EXPECTED.max_km}.`, {
              type: 'number',
              exclusiveMinimum: 0,
              maximum: MAX_KM,
              default: DEFAULT_MAX_KM,
            }),
          ],
          responses: {
            '200': { description: 'OK.', ...json(ref('NearestResponse')) },
            '400': {
              description:
                "Invalid parameter: `Invalid parameter '<name>': expected ...` (malformed, out of range, repeated, lat without lon, or both a point and a ZIP code).",
              ...json(ref('Error')),
            },
            '404': {
              description:
                'No served city within max_km (NO_CITY_NEARBY, naming the nearest and its distance), or a ZIP code with no area (UNKNOWN_ZIP).',
              ...json({ oneOf: [ref('NoCityNearbyError'), ref('UnknownZipError')] }),
            },
            '405': { description: 'Only GET, HEAD and OPTIONS are allowed.', ...json(ref('Error')) },
            '500': { description: 'Internal server error (sanitized).', ...json(ref('Error')) },
          },
        },
      },
      '/api/available-dates': get({
        operationId: 'listAvailableDates',
        summary: 'Dates with data',
        description: 'All UTC dates with pollen observations, newest first.',
        ok: ref('AvailableDatesResponse'),
      }),
      '/api/latest-date': get({
        operationId: 'getLatestDate',
        summary: 'Latest date',
        description: 'The latest UTC observation date; 404 while there is none.',
        ok: ref('LatestDateResponse'),
        latest: true,
      }),
      '/api/pollen': get({
        operationId: 'getPollen',
        summary: 'Pollen observations',
        description: `city and date: the hourly rows of that date. city only: up to ${MAX_DAILY_ROWS} daily rows (days with data), newest first. date only: one cross-city row per city with data, by slug. Neither: the same as date=<latest date>. A valid date without data gives empty rows. With timezone=local the body carries "timezone": "local", daily rows carry hours, and latest is the newest local day complete for every city.`,
        parameters: [cityParam, dayParam, timezoneParam("each city's own local calendar day (23, 24 or 25 hours).")],
        ok: { oneOf: [ref('PollenCityDateResponse'), ref('PollenCityResponse'), ref('PollenDateResponse')] },
        withCity: true,
        latest: true,
      }),
      '/api/map-data': get({
        operationId: 'getPollenMap',
        summary: 'Map of daily maxima',
        description:
          'One GeoJSON point per city with data on the date; series holds that day and the two before it, ascending (null values for a day without data). A date without data gives an empty features array.',
        parameters: [
          param('date', `A date or 'latest' (${EXPECTED.mapDate}).`, {
            anyOf: [{ type: 'string', format: 'date' }, { const: 'latest' }],
            default: 'latest',
          }),
          timezoneParam("each city's own local day, and the series in local days; latest is the newest local day complete for every city."),
        ],
        ok: ref('MapFeatureCollection'),
        type: 'application/geo+json',
        latest: true,
      }),
      '/api/weather': get({
        operationId: 'getWeather',
        summary: 'Weather and air quality',
        description: `city only: up to ${MAX_WEATHER_ROWS} daily rows, newest first. city and date: rows holds the one row or is empty. date only: the compact snapshot (city_slug, date, temp_day_c, humidity, wind_speed_ms, aqi) of every city with data, by slug. Neither: the same as date=<latest weather date>. date is the UTC day for every provider; temp_day_c is the day's mean temperature. aqi is 1..5 (OpenWeatherMap scale; computed from concentrations with its breakpoints where only those are known).`,
        parameters: [cityParam, dateParam],
        ok: ref('WeatherResponse'),
        withCity: true,
        latest: true,
      }),
      '/api/pollen-range': {
        get: {
          operationId: 'getPollenRange',
          summary: 'Pollen over any window',
          description: `Hourly (aggregate=none) or daily (aggregate=day: the hours inside [from, to) grouped by UTC day, or local day with timezone=local; daily-row rules, no peaks) rows, ordered by city slug then periodStart. from and to are echoed in UTC (a date-only one as given with timezone=local). Parameters other than these are ignored; each of these may be given once. Streamed, and compressed with br or gzip when accepted; the body stops before 20,000,000 bytes uncompressed (Netlify streams at most 20 MB), whatever the encoding, with truncated true and a next link. X-Truncated and X-Total-Rows headers repeat what the body says.`,
          parameters: [
            param('from', `Inclusive start: ${RANGE_EXPECTED.time}.`, { type: 'string' }, true),
            param('to', `Exclusive end, later than from: ${RANGE_EXPECTED.time}.`, { type: 'string' }, true),
            param('city', 'Comma-separated city slugs; all cities when omitted. The first unknown slug gives 404 UNSUPPORTED_CITY.', {
              type: 'string',
            }),
            param('aggregate', "'none' (hourly) or 'day'.", { type: 'string', enum: ['none', 'day'], default: 'none' }),
            param('limit', `Most rows returned, 1 to ${MAX_LIMIT}.`, {
              type: 'integer',
              minimum: 1,
              maximum: MAX_LIMIT,
              default: DEFAULT_LIMIT,
            }),
            param('format', "'json' or 'csv' (the same rows as text/csv, species omitted).", {
              type: 'string',
              enum: ['json', 'csv'],
              default: 'json',
            }),
            param(
              'after',
              "Continue after a row: 'city,periodStart' of the last row received (a truncated JSON answer's next link sets it; with CSV, take the last line's city and periodStart). The city must be one of the request's.",
              { type: 'string' },
            ),
            timezoneParam(
              "aggregate=day groups hours by each city's local day (periodStart its local midnight, as a UTC instant), and a date-only from or to means each city's local midnight and is echoed as given (to must then come after from in every city's zone).",
            ),
          ],
          responses: {
            '200': {
              description: 'OK.',
              content: { 'application/json': { schema: ref('PollenRangeResponse') }, 'text/csv': { schema: { type: 'string' } } },
            },
            ...errors(true),
          },
        },
      },
      '/api/forecast': {
        get: {
          operationId: 'getForecast',
          summary: 'The 48-hour forecast',
          description:
            'Hourly rows from the current UTC hour, up to 48, cached up to 6 hours per city. A fresh cache answers source "cache"; a refresh answers the provider id (by default the provider of the stored history); when a refresh fails (an answer with fewer than 24 usable hours included) or is blocked and a cache exists: 200 with stale true (and quotaExhausted true when the provider refused for quota or rate limit, or the daily call budget is spent); with no cache: 503 with Retry-After. Concurrent requests for a city share one upstream call.',
          parameters: [
            param('city', `City slug (${EXPECTED.city}).`, { type: 'string' }, true),
            param(
              'aggregate',
              "'none' (hourly rows, the default) or 'day': one row per day the forecast's hours touch, with date, the daily-row fields, hours and tz. The body echoes aggregate when given. An extension of the contract.",
              { type: 'string', enum: ['none', 'day'], default: 'none' },
            ),
            timezoneParam("with aggregate=day, the days are the city's local days."),
          ],
          responses: {
            '200': { description: 'OK.', ...json(ref('ForecastResponse')) },
            ...errors(true),
            '503': {
              description:
                "No cached forecast and the provider could not be reached, or this deployment's forecast provider lacks its key (the message names the variable); see Retry-After.",
              ...json(ref('Error')),
            },
          },
        },
      },
      '/api/alerts': {
        get: {
          operationId: 'getAlerts',
          summary: 'Alerts to subscribe to: calendar, feed or JSON',
          description:
            "The local days the forecast's 48 hours touch (today's remaining hours included) on which a category's worst hourly risk reaches min: one alert per day, with the categories that reach it (their worst risk and highest hourly value), the day's top allergens and a one-line summary. Read from the forecast /api/forecast reads (same cache, single flight, call budget and cache headers); days leave as the window moves. format=ics is an iCalendar (RFC 5545) of all-day events whose UIDs come from city, date, min and categories, with REFRESH-INTERVAL and X-PUBLISHED-TTL of 6 hours (subscribe with webcal://); atom is an Atom feed (RFC 4287) and jsonfeed a JSON Feed 1.1, whose entries keep the same ids and whose updated time is the forecast's fetchedAt. A stale forecast says so in every format. An extension of the contract.",
          parameters: [
            param('city', `City slug (${EXPECTED.city}).`, { type: 'string' }, true),
            param('min', `${ALERTS_EXPECTED.min}: the lowest risk that makes an alert.`, {
              type: 'string',
              enum: [...ALERT_LEVELS],
              default: DEFAULT_LEVEL,
            }),
            param('categories', `${ALERTS_EXPECTED.categories}; all four by default. ragweed is the Weed.Ragweed allergen.`, {
              type: 'string',
              pattern: '^[A-Za-z]+(,[A-Za-z]+)*$',
              default: ALERT_CATEGORIES.join(','),
            }),
            param('format', `${ALERTS_EXPECTED.format}.`, { type: 'string', enum: [...ALERT_FORMATS], default: 'json' }),
          ],
          responses: {
            '200': {
              description: 'OK, with the Cache-Control of /api/forecast.',
              content: {
                'application/json': { schema: ref('AlertsResponse') },
                'text/calendar': { schema: { type: 'string' } },
                'application/atom+xml': { schema: { type: 'string' } },
                'application/feed+json': {
                  schema: {
                    type: 'object',
                    description: 'JSON Feed 1.1 (jsonfeed.org/version/1.1); each item carries its alert as _pollen_alert.',
                  },
                },
              },
            },
            ...errors(true),
            '503': { description: 'No forecast can be given, as for /api/forecast; see Retry-After.', ...json(ref('Error')) },
          },
        },
      },
      '/data/bulk/index.json': {
        get: {
          operationId: 'getBulkManifest',
          summary: 'Bulk files of the whole history',
          description:
            "A static file written by each render: the served history as monthly files under /data/bulk/ (pollen-hourly, pollen-daily and weather-daily, each as Parquet and as gzip CSV), each with its path, month, rows, bytes and SHA-256, and each kind's columns with type, unit and meaning (the data dictionary). The files are static too, and answer byte ranges (Range: bytes=...) for Parquet readers over HTTP. MCP: get_bulk_files.",
          parameters: [],
          responses: {
            '200': { description: 'OK.', ...json(ref('BulkManifest')) },
            '404': {
              description: 'Before the first render, or a file under /data/bulk/ that is not listed: the fallback function answers JSON.',
              ...json(ref('Error')),
            },
          },
        },
      },
      '/api/health': {
        get: {
          operationId: 'getHealth',
          summary: 'Data freshness',
          description: `For uptime monitors: status "ok" (200) while the newest stored hour is at most HEALTH_MAX_AGE_HOURS (default ${DEFAULT_HEALTH_MAX_AGE_HOURS}) old, else "stale" (503; an empty store included, with nulls). Cache-Control: no-store.`,
          parameters: [],
          responses: {
            '200': { description: 'The data is fresh.', ...json(ref('HealthResponse')) },
            '405': { description: 'Only GET, HEAD and OPTIONS are allowed.', ...json(ref('Error')) },
            '500': { description: 'Internal server error (sanitized).', ...json(ref('Error')) },
            '503': { description: 'The data is stale, or there is none yet.', ...json(ref('HealthResponse')) },
          },
        },
      },
    },
    components: { schemas: components },
  };
}
