/**
 * GET /api/alerts: the local days of a city's forecast on which a category's worst hour reaches a
 * level, as JSON, an iCalendar subscription, an Atom feed or a JSON Feed (docs/decisions.md, "Alerts").
 * It reads the forecast `/api/forecast` reads, through the same cache, single flight and budget:
 * nothing is stored per subscriber.
 */
import { alertsFor, type AlertRule } from '../../domain/alerts.js';
import type { City } from '../../domain/cities.js';
import { dayNumber, HOUR_MS } from '../../domain/dates.js';
import { dayOfHour } from '../../domain/days.js';
import { ALERT_CATEGORIES, ALERT_LEVELS, DEFAULT_LEVEL, type Graded } from '../../domain/species/risk.js';
import type { Forecast } from '../../forecast/service.js';
import { ALERT_FORMAT_NAMES, ALERT_FORMATS } from './alert-formats.js';
import { type AlertOutlook, type AlertsAnswer, AlertsResponse } from './alerts-answer.js';
import type { ApiContext } from '../contract/context.js';
import { ForecastUnavailable503, forecastOf, inZone } from './forecast-of.js';
import { atOrAbove, outlookDates } from './forecast-outlook.js';
import { CITY_NOT_FOUND } from '../contract/not-found.js';
import { requiredCity, servedCity } from '../contract/params.js';
import { formatParam } from '../contract/format.js';
import { anyCase, commaList, oneOfWords, param } from '../contract/query.js';
import { route } from '../contract/route.js';
import { provenanceOf } from '../contract/answer-fields.js';

const CATEGORIES_EXPECTED = `a comma-separated list of ${ALERT_CATEGORIES.map((c) => `'${c}'`).join(', ')}`;

/** `categories`: in ALERT_CATEGORIES order, each once, whatever the order and case asked. */
const categories = param(
  commaList(anyCase(ALERT_CATEGORIES))
    .transform((asked): readonly Graded[] => ALERT_CATEGORIES.filter((c) => asked.includes(c)))
    .default(ALERT_CATEGORIES),
  {
    expected: CATEGORIES_EXPECTED,
    description: `${CATEGORIES_EXPECTED}, in any case; all four by default. ragweed is the Weed.Ragweed allergen.`,
    once: true,
  },
);

export const alertsRoute = route({
  path: '/api/alerts',
  params: {
    city: requiredCity({ once: true }),
    min: param(anyCase(ALERT_LEVELS).default(DEFAULT_LEVEL), {
      expected: `${oneOfWords(ALERT_LEVELS)} (any case)`,
      description: `${oneOfWords(ALERT_LEVELS)} (any case): the lowest risk that makes an alert.`,
      once: true,
    }),
    categories,
    format: formatParam(ALERT_FORMAT_NAMES, 'JSON, an iCalendar, an Atom feed or a JSON Feed.'),
  },
  response: AlertsResponse,
  doc: {
    operationId: 'getAlerts',
    summary: 'Alerts to subscribe to: calendar, feed or JSON',
    description:
      "The local days the forecast's 48 hours touch (today's remaining hours included) on which a category's worst hourly risk reaches min: one alert per day, with the categories that reach it (their worst risk and highest hourly value), the day's top allergens and a one-line summary. Read from the forecast /api/forecast reads (same cache, single flight, call budget and cache headers); days leave as the window moves. format=ics is an iCalendar (RFC 5545) of all-day events whose UIDs come from city, date, min and categories, with REFRESH-INTERVAL and X-PUBLISHED-TTL of 6 hours (subscribe with webcal://); atom is an Atom feed (RFC 4287) and jsonfeed a JSON Feed 1.1, whose entries keep the same ids and whose updated time is the forecast's fetchedAt. A stale forecast says so in every format. An extension of the contract.",
    ok: 'OK, with the Cache-Control of /api/forecast.',
    notFound: CITY_NOT_FOUND,
    unavailable: { description: 'No forecast can be given, as for /api/forecast; see Retry-After.', schema: ForecastUnavailable503.schema },
  },
  llms: "the local days of the next 48 hours on which a category's worst hour reaches min (default High, all categories): each alert has the date, the categories with their risk and peak, the top allergens and a one-line summary; ics is a calendar to subscribe to (webcal://), atom and jsonfeed are feeds. To tell a user whether tomorrow will be bad, use this (or the MCP tool get_alerts) rather than reading hourly rows.",
  tool: {
    name: 'get_alerts',
    title: 'Pollen alerts for the next two days',
    description:
      "The city's local days in the 48-hour forecast (today's remaining hours included) on which a category's worst hour reaches min (default High): for each, the date, the categories that reach it with their risk and highest hourly value, the day's top allergens and a one-line summary to pass on. An empty alerts list means no day reaches min. People can subscribe to the same alerts in a calendar (/api/alerts?format=ics) or a feed reader (format=atom or jsonfeed).",
    openWorld: true,
    note: 'the JSON form of /api/alerts',
  },
  formats: ALERT_FORMATS,
  handle: async ({ city: slug, min, categories }, ctx) => {
    const city = servedCity(ctx.cities, slug);
    const rule: AlertRule = { min, categories };
    const answer = alertsAnswer(city, await forecastOf(ctx, city), rule, ctx.forecast.providerId);
    return { body: { ...answer, ...alertOutlook(ctx, city, answer.dates, rule) } };
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
    // The sample's values are invented: whoever subscribes must be told (every form says it).
    ...provenanceOf(provider),
    source,
    stale,
    ...(quotaExhausted ? { quotaExhausted } : {}),
    fetchedAt,
    ...alertsFor(city, inZone(forecast.hours, forecast.timezone), rule),
  };
}

/**
 * The outlook's dates after the forecast's local dates, to 7 days after today (the city's), with
 * each watched category's probability of reaching the rule's level; nothing without an outlook.
 */
function alertOutlook(ctx: ApiContext, city: City, forecastDates: readonly string[], rule: AlertRule): { outlook?: AlertOutlook[] } {
  const today = dayOfHour('local', city.timezone, Math.floor(ctx.settings.now() / HOUR_MS));
  const last = forecastDates.at(-1);
  const outlook = outlookDates(ctx.outlooks, city.slug, last === undefined ? today : dayNumber(last) + 1, today + 7);
  if (!outlook) return {};
  return {
    outlook: outlook.dates.map(({ date, lead, categories }) => ({
      date,
      lead,
      categories: categories
        .filter((c) => rule.categories.includes(c.category))
        .map((c) => ({
          category: c.category,
          probability: c.probabilities && atOrAbove(c.probabilities, rule.min),
          served: c.served,
          rpss: c.rpss,
        })),
    })),
  };
}
