/**
 * GET /api/alerts: the local days of a city's forecast on which a category's worst hour reaches a
 * level, as JSON, an iCalendar subscription, an Atom feed or a JSON Feed (docs/decisions.md, "Alerts").
 * It reads the forecast `/api/forecast` reads, through the same cache, single flight and budget:
 * nothing is stored per subscriber.
 */
import * as z from 'zod';
import { type AlertRule, alertsFor, alertsForDays } from '../../domain/alerts.js';
import { type City, slugify } from '../../domain/cities.js';
import { dayNumber, HOUR_MS } from '../../domain/dates.js';
import { dayOfHour } from '../../domain/day-cuts.js';
import { type Allergen, outlookCategory } from '../../domain/species/allergens.js';
import { ALERT_CATEGORIES, ALERT_LEVELS, type AlertLevel, DEFAULT_LEVEL, type Graded } from '../../domain/species/risk.js';
import type { Forecast } from '../../forecast/service.js';
import { provenanceOf } from '../contract/answer-fields.js';
import type { ApiContext } from '../contract/context.js';
import { invalidParameter } from '../contract/error.js';
import { formatParam } from '../contract/format.js';
import { CITY_NOT_FOUND } from '../contract/not-found.js';
import { requiredCity, servedCity } from '../contract/params.js';
import { anyCase, commaList, oneOfWords, param } from '../contract/query.js';
import { route } from '../contract/route.js';
import { ALERT_FORMAT_NAMES, ALERT_FORMATS } from './alert-formats.js';
import { type AlertOutlook, type AlertsAnswer, AlertsResponse } from './alerts-answer.js';
import { ForecastUnavailable503, forecastOf, inZone } from './forecast-of.js';
import { atOrAbove, outlookDates } from './forecast-outlook.js';

const CATEGORIES_EXPECTED = `a comma-separated list of ${ALERT_CATEGORIES.map((c) => `'${c}'`).join(', ')}`;

/**
 * `categories`: in ALERT_CATEGORIES order, each once, whatever the order and case asked; when
 * absent, all four, or none where `species` is given (see `ruleOf`).
 */
const categories = param(
  commaList(anyCase(ALERT_CATEGORIES))
    .transform((asked): readonly Graded[] => ALERT_CATEGORIES.filter((c) => asked.includes(c)))
    .optional(),
  {
    expected: CATEGORIES_EXPECTED,
    description: `${CATEGORIES_EXPECTED}, in any case; all four by default, none when species is given. ragweed is the Weed.Ragweed allergen.`,
    once: true,
  },
);

const SPECIES_EXPECTED = 'a comma-separated list of allergens the data holds, such as oak,birch';

/** `species`: allergens by slug or name in any case (`oak`, `Cypress / Juniper / Cedar`); checked against the served ones in the handler. */
const species = param(
  commaList(z.string().min(1))
    .transform((asked) => [...new Set(asked.map(slugify))])
    .optional(),
  {
    expected: SPECIES_EXPECTED,
    shape: 'oak,birch,...',
    description:
      "Allergens to watch, comma-separated, by slug (oak, cypress-juniper-cedar, grass-poaceae, ragweed), by the provider's name or by one plant of a name that joins several (cedar, cottonwood), in any case: those the served data holds (an unknown one is a 400 that lists them). Each is graded on its category's NAB range, since NAB publishes ranges for categories only. An extension.",
    once: true,
    maxLength: 512,
  },
);

/**
 * The rule asked: categories as given (all four when neither list is), and the allergens asked,
 * in the served order; an allergen the data does not hold is a 400 that lists those it does.
 */
export function ruleOf(
  served: readonly Allergen[],
  asked: { min: AlertLevel; categories?: readonly Graded[]; species?: readonly string[] },
): AlertRule {
  const slugs = asked.species ?? [];
  const unknown = slugs.filter((slug) => !served.some((a) => names(a, slug)));
  if (unknown.length > 0) {
    const held = served.length === 0 ? 'none' : served.map((a) => a.slug).join(', ');
    throw invalidParameter('species', `allergens the data holds (${held}), not ${unknown.map((u) => `'${u}'`).join(', ')}`);
  }
  return {
    min: asked.min,
    categories: asked.categories ?? (slugs.length > 0 ? [] : ALERT_CATEGORIES),
    species: served.filter((a) => slugs.some((slug) => names(a, slug))),
  };
}

/** Whether a slug asked names an allergen: its slug, or one of the plants its name joins (`cedar` in "Cypress / Juniper / Cedar"). */
const names = (allergen: Allergen, slug: string): boolean =>
  allergen.slug === slug || allergen.name.split('/').some((part) => slugify(part) === slug);

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
    species,
    format: formatParam(ALERT_FORMAT_NAMES, 'JSON, an iCalendar, an Atom feed or a JSON Feed.'),
  },
  response: AlertsResponse,
  doc: {
    operationId: 'getAlerts',
    summary: 'Alerts to subscribe to: calendar, feed or JSON',
    description:
      "The local days the forecast's 48 hours touch (today's remaining hours included) on which a watched category's worst hourly risk reaches min: one alert per day, with the categories that reach it (their worst risk and highest hourly value), the day's top allergens and a one-line summary. With species=, single allergens (oak, birch, ragweed) are watched too, or instead when categories is not given: each graded on its category's NAB range, since NAB publishes ranges for categories only. Read from the forecast /api/forecast reads (same cache, single flight, call budget and cache headers); days leave as the window moves. format=ics is an iCalendar (RFC 5545) of all-day events whose UIDs come from city, date, min and categories, with REFRESH-INTERVAL and X-PUBLISHED-TTL of 6 hours (subscribe with webcal://, or paste the https:// URL where a calendar asks for one, as Google Calendar's From URL does); atom is an Atom feed (RFC 4287) and jsonfeed a JSON Feed 1.1, whose entries keep the same ids and whose updated time is the forecast's fetchedAt. Each event and entry says it is a forecast and whose, and links to the city's page (/?city=). A calendar or feed with no alert says in its description that nothing is expected, at which level, for what and on which dates. A stale forecast says so in every format. An extension of the contract.",
    ok: 'OK, with the Cache-Control of /api/forecast.',
    notFound: CITY_NOT_FOUND,
    unavailable: { description: 'No forecast can be given, as for /api/forecast; see Retry-After.', schema: ForecastUnavailable503.schema },
  },
  llms: "the local days of the next 48 hours on which a category's worst hour reaches min (default High, all categories): each alert has the date, the categories with their risk and peak, the top allergens and a one-line summary; species=oak,birch watches single allergens instead (each on its category's NAB range); ics is a calendar to subscribe to (webcal://, or its https:// URL pasted into Google Calendar's From URL), atom and jsonfeed are feeds; an empty one says nothing is expected. To tell a user whether tomorrow will be bad, use this (or the MCP tool get_alerts) rather than reading hourly rows.",
  tool: {
    name: 'get_alerts',
    title: 'Pollen alerts for the next two days',
    description:
      "The city's local days in the 48-hour forecast (today's remaining hours included) on which a category's worst hour reaches min (default High): for each, the date, the categories that reach it with their risk and highest hourly value, the day's top allergens and a one-line summary to pass on. To watch the plants a person reacts to, pass species (such as oak,birch: an unknown one is refused with the list the data holds); each is graded on its category's NAB range. An empty alerts list means no day reaches min. People can subscribe to the same alerts in a calendar (/api/alerts?format=ics) or a feed reader (format=atom or jsonfeed).",
    openWorld: true,
    note: 'the JSON form of /api/alerts',
  },
  formats: ALERT_FORMATS,
  handle: async ({ city: slug, min, categories, species }, ctx) => {
    const city = servedCity(ctx.cities, slug);
    // The served allergens are read only when asked for: the forecast function need not open anything else.
    const rule = ruleOf(species === undefined ? [] : ctx.allergens, { min, categories, species });
    const forecast = await forecastOf(ctx, city);
    const answer = alertsAnswer(city, forecast, rule, forecast.provider);
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
    species: (rule.species ?? []).map(({ category, name, slug }) => ({ category, name, slug })),
    // The sample's values are invented: whoever subscribes must be told (every form says it).
    ...provenanceOf(provider),
    source,
    stale,
    ...(quotaExhausted ? { quotaExhausted } : {}),
    fetchedAt,
    // A daily provider's dates are its days (the place's, from today): each date one value.
    ...(forecast.days
      ? alertsForDays(
          city,
          forecast.days.map(({ date, levels: _levels, ...values }) => ({
            day: dayNumber(date),
            values: { ...values, timezone: forecast.timezone },
          })),
          rule,
        )
      : alertsFor(city, inZone(forecast.hours, forecast.timezone), rule)),
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
  // An allergen's outlook is its category's: the outlook is made for categories only.
  const watched = new Set<Graded>([...rule.categories, ...(rule.species ?? []).map(outlookCategory)]);
  return {
    outlook: outlook.dates.map(({ date, lead, categories }) => ({
      date,
      lead,
      categories: categories
        .filter((c) => watched.has(c.category))
        .map((c) => ({
          category: c.category,
          probability: c.probabilities && atOrAbove(c.probabilities, rule.min),
          served: c.served,
          rpss: c.rpss,
        })),
    })),
  };
}
