/**
 * The subscription forms of `/api/alerts`, each written from its JSON form: iCalendar (RFC 5545,
 * with ical-generator), Atom (RFC 4287, with feed) and JSON Feed 1.1 (a JSON value: the `feed`
 * package writes only version 1). Every form says when the forecast was fetched and, when it
 * could not be refreshed, that it is stale; on the sample provider, every calendar, feed, event and
 * entry says its values are simulated.
 */
import { Feed } from 'feed';
import ical, { ICalCalendarMethod, ICalEventTransparency } from 'ical-generator';
import { nothingExpected } from '../../domain/alert-words.js';
import type { AlertRule } from '../../domain/alerts.js';
import { type Alert, feedName, nameUuid } from '../../domain/alerts.js';
import { DAY_MS, dayNumber, instantInWords } from '../../domain/dates.js';
import { onRange } from '../../domain/species/allergens.js';
import { capitalized } from '../../domain/words.js';
import { CACHE_LIMIT_MS } from '../../forecast/service.js';
import type { JsonAnswer, TextAnswer } from '../contract/answer.js';
import { type Format, type RequestQuery, TEXT } from '../contract/format.js';
import { API_TITLE } from '../contract/identity.js';
import type { AlertsAnswer } from './alerts-answer.js';
import { vtimezone } from './ics-timezone.js';

/** The formats /api/alerts offers besides JSON. */
export const ALERT_FORMAT_NAMES = ['ics', 'atom', 'jsonfeed'] as const;
export type AlertFormat = 'json' | (typeof ALERT_FORMAT_NAMES)[number];

/** Absolute URLs the subscription forms point to. */
export interface AlertLinks {
  /** This subscription in this form. */
  self: string;
  /** The city's page, where a person reads the day: what every event and entry links to. */
  page: string;
  /** The landing page. */
  home: string;
  /** The API's description. */
  api: string;
}

/** This subscription's URL in a format (canonical: every parameter spelled out). */
export function alertsUrl(origin: string, city: string, rule: AlertRule, format: AlertFormat): string {
  const species = (rule.species ?? []).map((s) => s.slug).join(',');
  const query = new URLSearchParams({
    city,
    min: rule.min,
    // With species, no categories means none (without, all four): each list is written only when it has items.
    ...(rule.categories.length > 0 || species === '' ? { categories: rule.categories.join(',') } : {}),
    ...(species === '' ? {} : { species }),
    ...(format === 'json' ? {} : { format }),
  });
  return `${origin}/api/alerts?${query}`;
}

/** The links of an answer in a format: they need the request's origin, which a render has not. */
function linksOf(a: AlertsAnswer, format: AlertFormat, { origin }: RequestQuery): AlertLinks {
  if (origin === undefined) throw new Error(`the ${format} form links to the API, so it needs the request's origin`);
  return {
    self: alertsUrl(origin, a.city, a, format),
    page: `${origin}/?${new URLSearchParams({ city: a.city })}`,
    home: `${origin}/`,
    api: `${origin}/openapi.json`,
  };
}

/** A renderer writing an answer's text, with its links, in one of the alert formats. */
function alertFormat(
  format: Exclude<AlertFormat, 'json'>,
  contentType: string,
  schema: Format<AlertsAnswer>['schema'],
  write: (a: AlertsAnswer, links: AlertLinks) => Omit<TextAnswer, 'contentType'>,
): Format<AlertsAnswer> {
  return {
    contentType,
    schema,
    render: ({ body }: JsonAnswer<AlertsAnswer>, given) => {
      const a = body as AlertsAnswer;
      return { ...write(a, linksOf(a, format, given)), contentType };
    },
  };
}

/** The renderers of the formats, each written from the JSON answer. */
export const ALERT_FORMATS = {
  ics: alertFormat('ics', 'text/calendar; charset=utf-8', TEXT, (a, links) => ({
    text: alertsIcs(a, links),
    // inline: a browser that opens the link shows or imports it; calendar apps subscribe to the URL.
    headers: { 'Content-Disposition': `inline; filename="pollen-alerts-${a.city}.ics"` },
  })),
  atom: alertFormat('atom', 'application/atom+xml; charset=utf-8', TEXT, (a, links) => ({ text: alertsAtom(a, links) })),
  jsonfeed: alertFormat(
    'jsonfeed',
    'application/feed+json',
    { type: 'object', description: 'JSON Feed 1.1 (jsonfeed.org/version/1.1); each item carries its alert as _pollen_alert.' },
    (a, links) => ({ text: JSON.stringify(alertsJsonFeed(a, links)) }),
  ),
} satisfies Record<(typeof ALERT_FORMAT_NAMES)[number], Format<AlertsAnswer>>;

/** How often a calendar should fetch the subscription again: the forecast's cache limit. */
export const REFRESH_SECONDS = CACHE_LIMIT_MS / 1000;

/** The one line each form adds about the forecast's age, in the city's time; stale answers say why. */
export function freshness(a: AlertsAnswer): string {
  const fetched = a.fetchedAt === null ? 'at an unknown time' : instantInWords(a.fetchedAt, a.timezone);
  if (!a.stale) return `Forecast fetched ${fetched}.`;
  const why = a.quotaExhausted ? "the provider's daily quota is used up" : 'the provider could not be reached';
  return `Stale forecast: it was fetched ${fetched} and could not be refreshed (${why}), so these alerts may be out of date.`;
}

/**
 * What every form of a sample deployment's alerts says: its values are invented. An alert is
 * made from a forecast, the sample's own invented one: the text says so, without calling it no forecast.
 */
export const SIMULATED =
  'Simulated: this site runs on the sample provider, which invents plausible pollen values for demonstration. These alerts come from its invented forecast: do not use them for health decisions.';

/**
 * What an alert is, in plain words: a forecast of the level, from the provider that made it
 * (the sample's invented one on a sample deployment), never a measurement.
 */
export const whatItIs = (a: AlertsAnswer): string =>
  a.simulated
    ? SIMULATED
    : `A forecast of the pollen level from ${a.provider === null ? 'the provider' : capitalized(a.provider)}, not a measurement.`;
/** The mark in titles a person sees first (a calendar's name, an event, an entry). */
const simulatedMark = (a: AlertsAnswer): string => (a.simulated ? ' (simulated)' : '');

/** "High or above in tree, grass", "High or above in Oak, Birch (each on its category's NAB range)". */
const ruleText = (a: AlertsAnswer): string => {
  const watched = [...a.categories, ...a.species.map((s) => s.name)].join(', ');
  return `${a.min} or above in ${watched}${a.species.length > 0 ? " (an allergen on its category's NAB range)" : ''}`;
};
const title = (a: AlertsAnswer): string => `Pollen alerts for ${a.name}, ${a.state}${simulatedMark(a)}: ${ruleText(a)}`;
const levels = (alert: Alert): string =>
  [...alert.categories.map((c) => `${c.risk} ${c.category}`), ...alert.species.map((s) => `${s.risk} ${s.name}`)].join(', ');
/** A feed entry's title: "Austin, 2026-03-08: High tree, High ragweed pollen". */
const entryTitle = (a: AlertsAnswer, alert: Alert): string => `${a.name}, ${alert.date}: ${levels(alert)} pollen${simulatedMark(a)}`;
/** A calendar event sits on its date already: "Austin pollen: High tree, High ragweed". */
const eventTitle = (a: AlertsAnswer, alert: Alert): string => `${a.name} pollen${simulatedMark(a)}: ${levels(alert)}`;
/**
 * The description of a whole calendar or feed: when nothing is expected, that sentence first (a
 * calendar or feed with no event says nothing by itself), on the sample that it is simulated,
 * and the forecast's age.
 */
const about = (a: AlertsAnswer): string =>
  [...(a.alerts.length === 0 ? [nothingExpected(a)] : []), ...(a.simulated ? [SIMULATED] : []), freshness(a)].join(' ');
const updated = (a: AlertsAnswer): Date => new Date(a.fetchedAt ?? 0);

/** The lines an entry's text holds: the summary, the values, the top allergens and the forecast's age. */
function details(a: AlertsAnswer, alert: Alert): string[] {
  return [
    alert.summary,
    ...alert.categories.map((c) => `${c.category}: ${c.risk}${c.peak === null ? '' : `, peak ${Math.round(c.peak)} grains/m³`}`),
    ...alert.species.map(
      (s) =>
        `${s.name} (${s.category}): ${s.risk} ${onRange(s.category)}${s.peak === null ? '' : `, peak ${Math.round(s.peak)} grains/m³`}`,
    ),
    ...(alert.top_species.length === 0
      ? []
      : [`Top allergens: ${alert.top_species.map((s) => `${s.name} (${s.category}) ${Math.round(s.peak)}`).join(', ')} grains/m³`]),
    coverage(alert),
    whatItIs(a),
    freshness(a),
  ];
}

/**
 * How much of the day the alert rests on: a day the forecast reaches only in part (its last day,
 * or what is left of today) says so, so that one forecast hour is not read as a whole day.
 */
function coverage(alert: Alert): string {
  if (alert.hours === 0) return "From the provider's forecast of the day as one value.";
  if (alert.hours >= 23) return `From the forecast's ${alert.hours} hours of the whole day.`;
  return `From only ${alert.hours} forecast hour${alert.hours === 1 ? '' : 's'} of the day: the forecast does not cover the rest of it.`;
}

/** An iCalendar of all-day events on each alert's local date, to subscribe to (`webcal://`). */
export function alertsIcs(a: AlertsAnswer, links: AlertLinks): string {
  const calendar = ical({
    name: title(a),
    description: `${ruleText(a)} on the days the forecast covers. ${about(a)}`,
    prodId: { company: 'pollen-api', product: 'alerts', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    url: links.self,
    // REFRESH-INTERVAL (RFC 7986) and X-PUBLISHED-TTL (the older clients' name), both written from ttl.
    ttl: REFRESH_SECONDS,
  });
  for (const alert of a.alerts) {
    const start = new Date(dayNumber(alert.date) * DAY_MS); // all-day values are written from the UTC date: the local date itself
    calendar.createEvent({
      id: alert.id.replace(/^urn:uuid:/, ''),
      allDay: true,
      start,
      end: new Date(start.getTime() + DAY_MS),
      stamp: updated(a),
      lastModified: updated(a),
      summary: eventTitle(a, alert),
      // The page a person reads, not the API: the event's URL is the same page.
      description: [...details(a, alert), `The day on the city's page: ${links.page}`].join('\n'),
      url: links.page,
      // An alert is not a meeting: it must not mark the day busy.
      transparency: ICalEventTransparency.TRANSPARENT,
    });
  }
  // The city's zone, before the events: a component even of a calendar with no alert (RFC 5545,
  // 3.6). Written in, not by ical-generator's `timezone`, which would write DTSTAMP in local time
  // where it must be UTC (3.8.7.2); the events are dates, in no zone.
  const text = calendar.toString();
  const at = text.search(/^(BEGIN:VEVENT|END:VCALENDAR)/m);
  // Every content line ends with CRLF (RFC 5545, 3.1), the last one too: ical-generator leaves it off.
  return `${text.slice(0, at)}${vtimezone(a.timezone, calendarYear(a))}${text.slice(at)}\r\n`;
}

/** The year of the calendar's first date (the forecast's), or of when it was fetched. */
const calendarYear = (a: AlertsAnswer): number => Number((a.dates[0] ?? updated(a).toISOString()).slice(0, 4));

/** Text as HTML element content (feed writes entry titles, summaries and content as type="html"). */
const escapeHtml = (text: string): string => text.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/** An Atom feed with one entry per alert; `updated` is when the forecast was fetched. */
export function alertsAtom(a: AlertsAnswer, links: AlertLinks): string {
  const feed = new Feed({
    id: `urn:uuid:${nameUuid(feedName(a.city, a))}`,
    title: title(a),
    description: about(a),
    updated: updated(a),
    link: links.page,
    feed: links.self,
    author: { name: API_TITLE, link: links.api },
    generator: false,
  });
  for (const alert of a.alerts) {
    feed.addItem({
      id: alert.id,
      title: escapeHtml(entryTitle(a, alert)),
      link: links.page,
      date: updated(a),
      description: escapeHtml(a.simulated ? `${alert.summary} ${SIMULATED}` : alert.summary),
      content: details(a, alert)
        .map((line) => `<p>${escapeHtml(line)}</p>`)
        .join(''),
    });
  }
  return feed.atom1();
}

/** JSON Feed 1.1 (jsonfeed.org/version/1.1), with the alert itself under `_pollen_alert` (an extension: keys that start with `_`). */
export function alertsJsonFeed(a: AlertsAnswer, links: AlertLinks): JsonFeed {
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: title(a),
    home_page_url: links.page,
    feed_url: links.self,
    description: about(a),
    authors: [{ name: API_TITLE, url: links.api }],
    language: 'en-US',
    items: a.alerts.map((alert) => ({
      id: alert.id,
      url: links.page,
      title: entryTitle(a, alert),
      summary: a.simulated ? `${alert.summary} ${SIMULATED}` : alert.summary,
      content_text: details(a, alert).join('\n'),
      date_modified: updated(a).toISOString(),
      tags: [...alert.categories.map((c) => c.category), ...alert.species.map((s) => s.slug)],
      _pollen_alert: alert,
    })),
    _pollen_alerts: {
      about: links.api,
      city: a.city,
      min: a.min,
      categories: a.categories,
      species: a.species,
      stale: a.stale,
      provider: a.provider,
      ...(a.simulated ? { simulated: true as const } : {}),
      fetchedAt: a.fetchedAt,
      dates: a.dates,
    },
  };
}

export interface JsonFeed {
  version: 'https://jsonfeed.org/version/1.1';
  title: string;
  home_page_url: string;
  feed_url: string;
  description: string;
  authors: { name: string; url: string }[];
  language: string;
  items: {
    id: string;
    url: string;
    title: string;
    summary: string;
    content_text: string;
    date_modified: string;
    tags: string[];
    _pollen_alert: Alert;
  }[];
  _pollen_alerts: Pick<
    AlertsAnswer,
    'city' | 'min' | 'categories' | 'species' | 'stale' | 'provider' | 'simulated' | 'fetchedAt' | 'dates'
  > & {
    about: string;
  };
}
