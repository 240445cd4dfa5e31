/**
 * GET /api/alerts: the local days of a city's forecast on which a category's worst hour reaches a
 * level, as JSON, an iCalendar subscription, an Atom feed or a JSON Feed (docs/decisions.md, "Alerts").
 * It reads the forecast `/api/forecast` reads, through the same cache, single flight and budget:
 * nothing is stored per subscriber.
 */
import { alertsFor, type AlertRule } from '../domain/alerts.js';
import type { City } from '../domain/cities.js';
import { ALERT_CATEGORIES, ALERT_LEVELS, DEFAULT_LEVEL, type Graded } from '../domain/risk.js';
import type { Forecast } from '../forecast/service.js';
import { SAMPLE_ID } from '../providers/sample/index.js';
import { alertsAtom, alertsIcs, alertsJsonFeed, FORMAT_TYPES, type AlertFormat, type AlertLinks } from './alert-formats.js';
import * as z from 'zod';
import { forecastOf, inZone } from './forecast.js';
import { CITY_NOT_FOUND } from './not-found.js';
import { choice, requiredCity } from './params.js';
import { withDefault } from './query.js';
import { route } from './route.js';
import { AlertsResponse, ErrorBody } from './schemas.js';
import { citySlug } from './tool-args.js';

export const ALERT_FORMATS = Object.keys(FORMAT_TYPES) as AlertFormat[];

const CATEGORIES_EXPECTED = `a comma-separated list of ${ALERT_CATEGORIES.map((c) => `'${c}'`).join(', ')}`;

/** The JSON form, which the other forms are written from. */
export type AlertsAnswer = z.infer<typeof AlertsResponse>;

/** `categories`: in ALERT_CATEGORIES order, each once, whatever the order and case asked. */
const categories = withDefault<readonly Graded[]>(
  {
    expected: CATEGORIES_EXPECTED,
    description: `${CATEGORIES_EXPECTED}; all four by default. ragweed is the Weed.Ragweed allergen.`,
    schema: z
      .string()
      .regex(/^[A-Za-z]+(,[A-Za-z]+)*$/)
      .default(ALERT_CATEGORIES.join(',')),
    once: true,
    read: (text) => {
      const asked = text.split(',').map((c) => c.toLowerCase());
      if (asked.some((c) => !(ALERT_CATEGORIES as readonly string[]).includes(c))) return undefined;
      return ALERT_CATEGORIES.filter((c) => asked.includes(c));
    },
  },
  ALERT_CATEGORIES,
);

const oneOfWords = (words: readonly string[]) => `one of ${words.map((w) => `'${w}'`).join(', ')}`;

export const alertsRoute = route({
  path: '/api/alerts',
  params: {
    city: requiredCity({ once: true }),
    min: withDefault(
      choice(ALERT_LEVELS, {
        expected: `${oneOfWords(ALERT_LEVELS)} (any case)`,
        description: `${oneOfWords(ALERT_LEVELS)} (any case): the lowest risk that makes an alert.`,
        default: DEFAULT_LEVEL,
        once: true,
        anyCase: true,
      }),
      DEFAULT_LEVEL,
    ),
    categories,
    format: withDefault<AlertFormat>(
      choice(ALERT_FORMATS, {
        expected: oneOfWords(ALERT_FORMATS),
        description: `${oneOfWords(ALERT_FORMATS)}.`,
        default: 'json',
        once: true,
        anyCase: true,
      }),
      'json',
    ),
  },
  response: AlertsResponse,
  doc: {
    operationId: 'getAlerts',
    summary: 'Alerts to subscribe to: calendar, feed or JSON',
    description:
      "The local days the forecast's 48 hours touch (today's remaining hours included) on which a category's worst hourly risk reaches min: one alert per day, with the categories that reach it (their worst risk and highest hourly value), the day's top allergens and a one-line summary. Read from the forecast /api/forecast reads (same cache, single flight, call budget and cache headers); days leave as the window moves. format=ics is an iCalendar (RFC 5545) of all-day events whose UIDs come from city, date, min and categories, with REFRESH-INTERVAL and X-PUBLISHED-TTL of 6 hours (subscribe with webcal://); atom is an Atom feed (RFC 4287) and jsonfeed a JSON Feed 1.1, whose entries keep the same ids and whose updated time is the forecast's fetchedAt. A stale forecast says so in every format. An extension of the contract.",
    ok: 'OK, with the Cache-Control of /api/forecast.',
    alternatives: {
      'text/calendar': { type: 'string' },
      'application/atom+xml': { type: 'string' },
      'application/feed+json': {
        type: 'object',
        description: 'JSON Feed 1.1 (jsonfeed.org/version/1.1); each item carries its alert as _pollen_alert.',
      },
    },
    notFound: CITY_NOT_FOUND,
    unavailable: { description: 'No forecast can be given, as for /api/forecast; see Retry-After.', schema: ErrorBody },
  },
  llms: "/api/alerts?city=SLUG&min=Low|Moderate|High|Very High&categories=tree,grass,weed,ragweed&format=json|ics|atom|jsonfeed: the local days of the next 48 hours on which a category's worst hour reaches min (default High, all categories): each alert has the date, the categories with their risk and peak, the top allergens and a one-line summary; ics is a calendar to subscribe to (webcal://), atom and jsonfeed are feeds. To tell a user whether tomorrow will be bad, use this (or the MCP tool get_alerts) rather than reading hourly rows.",
  tool: {
    name: 'get_alerts',
    title: 'Pollen alerts for the next two days',
    description:
      "The city's local days in the 48-hour forecast (today's remaining hours included) on which a category's worst hour reaches min (default High): for each, the date, the categories that reach it with their risk and highest hourly value, the day's top allergens and a one-line summary to pass on. An empty alerts list means no day reaches min. People can subscribe to the same alerts in a calendar (/api/alerts?format=ics) or a feed reader (format=atom or jsonfeed).",
    input: {
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
    query: ({ city, min, categories }) => ({
      city: city as string,
      min: min as string | undefined,
      categories: (categories as string[] | undefined)?.join(','),
    }),
    openWorld: true,
    note: 'the JSON form of /api/alerts',
  },
  handle: async ({ city, min, categories, format }, ctx, { origin }) => {
    const rule: AlertRule = { min, categories };
    const answer = alertsAnswer(city, await forecastOf(ctx, city), rule, ctx.forecast.providerId);
    if (format === 'json') return { body: answer };
    if (origin === undefined) throw new Error(`the ${format} form links to the API, so it needs the request's origin`);
    const links = alertLinks(origin, city, rule, format);
    const contentType = FORMAT_TYPES[format];
    if (format === 'ics') {
      // inline: a browser that opens the link shows or imports it; calendar apps subscribe to the URL.
      return {
        body: alertsIcs(answer, links),
        contentType,
        headers: { 'Content-Disposition': `inline; filename="pollen-alerts-${city.slug}.ics"` },
      };
    }
    return { body: format === 'atom' ? alertsAtom(answer, links) : alertsJsonFeed(answer, links), contentType };
  },
});

/** The alerts of a forecast from `provider`: each local day its hours touch, checked against the rule. */
export function alertsAnswer(city: City, forecast: Forecast, rule: AlertRule, provider: string): AlertsAnswer {
  const { stale, quotaExhausted, fetchedAt, source } = forecast;
  return {
    city: city.slug,
    name: city.name,
    state: city.state,
    timezone: city.timezone,
    min: rule.min,
    categories: [...rule.categories],
    source,
    stale,
    ...(quotaExhausted ? { quotaExhausted } : {}),
    // The sample's values are invented: whoever subscribes must be told (every form says it).
    ...(provider === SAMPLE_ID ? { simulated: true as const } : {}),
    fetchedAt,
    ...alertsFor(city, inZone(forecast.hours, forecast.timezone), rule),
  };
}

/** This subscription's URL in a format (canonical: every parameter spelled out), and the forecast it reads. */
export function alertsUrl(origin: string, city: string, rule: AlertRule, format: AlertFormat): string {
  const query = new URLSearchParams({
    city,
    min: rule.min,
    categories: rule.categories.join(','),
    ...(format === 'json' ? {} : { format }),
  });
  return `${origin}/api/alerts?${query}`;
}

function alertLinks(origin: string, city: City, rule: AlertRule, format: AlertFormat): AlertLinks {
  return {
    self: alertsUrl(origin, city.slug, rule, format),
    forecast: `${origin}/api/forecast?${new URLSearchParams({ city: city.slug, aggregate: 'day', timezone: 'local' })}`,
    home: `${origin}/`,
    api: `${origin}/openapi.json`,
  };
}
