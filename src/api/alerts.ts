/**
 * GET /api/alerts: the local days of a city's forecast on which a category's worst hour reaches a
 * level, as JSON, an iCalendar subscription, an Atom feed or a JSON Feed (docs/decisions.md, "Alerts").
 * It reads the forecast `/api/forecast` reads, through the same cache, single flight and budget:
 * nothing is stored per subscriber.
 */
import { alertsFor, type AlertRule } from '../domain/alerts.js';
import type { City } from '../domain/cities.js';
import { ALERT_CATEGORIES, ALERT_LEVELS, DEFAULT_LEVEL } from '../domain/risk.js';
import type { Forecast } from '../forecast/service.js';
import { alertsAtom, alertsIcs, alertsJsonFeed, FORMAT_TYPES, type AlertFormat, type AlertLinks } from './alert-formats.js';
import { invalidParameter } from './error.js';
import { forecastOf, inZone } from './forecast.js';
import type { Handler } from './handler.js';
import type { AlertsResponse } from './schemas.js';
import type * as z from 'zod';
import { EXPECTED, once, parseCity } from './params.js';

export const ALERT_FORMATS = Object.keys(FORMAT_TYPES) as AlertFormat[];

export const ALERTS_EXPECTED = {
  city: EXPECTED.city,
  min: `one of ${ALERT_LEVELS.map((l) => `'${l}'`).join(', ')} (any case)`,
  categories: `a comma-separated list of ${ALERT_CATEGORIES.map((c) => `'${c}'`).join(', ')}`,
  format: `one of ${ALERT_FORMATS.map((f) => `'${f}'`).join(', ')}`,
} as const;

/** The JSON form, which the other forms are written from. */
export type AlertsAnswer = z.infer<typeof AlertsResponse>;

export const alerts: Handler = async (query, ctx, origin) => {
  const city = parseCity(query, ctx.cities, once(query, 'city', ALERTS_EXPECTED.city));
  if (!city) throw invalidParameter('city', ALERTS_EXPECTED.city);
  const rule = parseRule(query);
  const format = parseFormat(once(query, 'format', ALERTS_EXPECTED.format));
  const answer = alertsAnswer(city, await forecastOf(ctx, city), rule);
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
};

/** `min` and `categories`, each at most once; categories come back in ALERT_CATEGORIES order, each once. */
export function parseRule(query: URLSearchParams): AlertRule {
  const minText = once(query, 'min', ALERTS_EXPECTED.min);
  const min = minText === undefined ? DEFAULT_LEVEL : ALERT_LEVELS.find((l) => l.toLowerCase() === minText.toLowerCase());
  if (!min) throw invalidParameter('min', ALERTS_EXPECTED.min);
  const listText = once(query, 'categories', ALERTS_EXPECTED.categories);
  if (listText === undefined) return { min, categories: ALERT_CATEGORIES };
  const asked = listText.split(',').map((c) => c.toLowerCase());
  if (asked.some((c) => !(ALERT_CATEGORIES as readonly string[]).includes(c)))
    throw invalidParameter('categories', ALERTS_EXPECTED.categories);
  return { min, categories: ALERT_CATEGORIES.filter((c) => asked.includes(c)) };
}

function parseFormat(text: string | undefined): AlertFormat {
  if (text === undefined) return 'json';
  const format = ALERT_FORMATS.find((f) => f === text.toLowerCase());
  if (!format) throw invalidParameter('format', ALERTS_EXPECTED.format);
  return format;
}

/** The alerts of a forecast: each local day its hours touch, checked against the rule. */
export function alertsAnswer(city: City, forecast: Forecast, rule: AlertRule): AlertsAnswer {
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
