/**
 * Alerts a person subscribes to: the city's `/api/alerts` at a chosen level, for the reader's
 * plants where they chose some, as a calendar subscription, a calendar link to paste, an Atom
 * feed and a JSON Feed, with what the coming days hold at that level.
 */

import type { AlertsAnswer } from '../../api/endpoints/alerts-answer.js';
import { expectedInWords, nothingExpected, reachesLevel } from '../../domain/alert-words.js';
import type { Allergen } from '../../domain/species/allergens.js';
import { ALERT_LEVELS, type AlertLevel, DEFAULT_LEVEL } from '../../domain/species/risk.js';
import { getJson } from './api.js';
import { h } from './dom.js';

/** The level chosen: the API's default until someone picks another; kept when the panel is drawn again. */
let alertLevel: AlertLevel = DEFAULT_LEVEL;

type AlertFormat = 'json' | 'ics' | 'atom' | 'jsonfeed';

/**
 * `/api/alerts` of a city at a level in a format, its parameters in the API's order (city, min,
 * species, format): the reader's plants where they chose some, else (no `categories`, no `species`)
 * every category. JSON, the API's default, is asked without `format`.
 */
function alertsPath(slug: string, level: AlertLevel, format: AlertFormat, plants: readonly Allergen[]): string {
  const species = plants.length === 0 ? '' : `&species=${plants.map((a) => encodeURIComponent(a.slug)).join(',')}`;
  return `/api/alerts?city=${encodeURIComponent(slug)}&min=${encodeURIComponent(level)}${species}${format === 'json' ? '' : `&format=${format}`}`;
}

/** The page's `<link rel="alternate">` to the selected city's Atom feed of alerts, for feed readers. */
function announceFeed(slug: string, name: string, plants: readonly Allergen[]): void {
  let link = document.head.querySelector<HTMLLinkElement>('link#alerts-feed');
  if (!link) document.head.append((link = h('link', undefined, { id: 'alerts-feed', rel: 'alternate', type: 'application/atom+xml' })));
  link.href = alertsPath(slug, alertLevel, 'atom', plants);
  link.title = `Pollen alerts for ${name}: ${alertLevel} or above${plants.length === 0 ? '' : ` in ${plants.map((a) => a.name).join(', ')}`}`;
}

/**
 * What the coming days hold at a level, from an answer at the lowest level: an alert's
 * categories and plants are those at or above the level asked, each with its own worst risk, so
 * the answer at Low holds every higher level's alerts, and one request serves every level.
 */
export function comingDays(answer: AlertsAnswer, level: AlertLevel): { sentence: string; days: string[] } {
  const alerts = answer.alerts.filter((a) => reachesLevel(a, level));
  if (alerts.length === 0) return { sentence: nothingExpected({ ...answer, min: level }), days: [] };
  return { sentence: `Expected at ${level} or above:`, days: alerts.map((a) => expectedInWords(a, level)) };
}

/** The coming days' paragraph and list, drawn again when the level changes; quiet until the answer comes, and if it never does. */
function comingView(slug: string, plants: readonly Allergen[]): { view: HTMLElement; draw: () => void } {
  const view = h('div', undefined, { class: 'alerts-coming', 'aria-live': 'polite' });
  let answer: AlertsAnswer | undefined;
  const draw = () => {
    if (!answer) return;
    const { sentence, days } = comingDays(answer, alertLevel);
    const list = h('ul', undefined, { class: 'alerts-days' });
    list.append(...days.map((d) => h('li', d)));
    view.replaceChildren(h('p', sentence, { class: 'alerts-sentence' }), ...(days.length > 0 ? [list] : []));
  };
  getJson<AlertsAnswer>(alertsPath(slug, 'Low', 'json', plants)).then(
    (a) => {
      answer = a;
      draw();
    },
    // The subscriptions work without it: a failed check is only not shown.
    () => view.replaceChildren(h('p', 'The coming days could not be checked just now; the links below still work.', { class: 'fine' })),
  );
  return { view, draw };
}

/**
 * Subscribe to alerts: a level, what the coming days hold at it, and the city's alerts at it as
 * a calendar subscription (webcal:, which Apple Calendar and Outlook take), the same calendar's
 * https: link for calendars that take a URL to paste (Google Calendar's "From URL"), an Atom
 * feed and a JSON Feed. The links and the sentence follow the level.
 */
export function alertsSection(slug: string, name: string, plants: readonly Allergen[]): HTMLElement {
  const section = h('section', undefined, { class: 'alerts' });
  const select = h('select', undefined, { id: 'alert-level', 'aria-describedby': 'alerts-note' });
  select.append(...ALERT_LEVELS.map((l) => new Option(l, l, l === DEFAULT_LEVEL, l === alertLevel)));
  const webcal = h('a', 'Subscribe (Apple Calendar, Outlook)', { type: 'text/calendar', class: 'alerts-webcal' });
  const https = h('a', 'Calendar link (Google Calendar: From URL)', { type: 'text/calendar', class: 'alerts-https' });
  const atom = h('a', 'Atom feed', { type: 'application/atom+xml' });
  const jsonFeed = h('a', 'JSON Feed', { type: 'application/feed+json' });
  const coming = comingView(slug, plants);
  const update = () => {
    const ics = alertsPath(slug, alertLevel, 'ics', plants);
    webcal.setAttribute('href', `webcal://${location.host}${ics}`);
    // Absolute: it is copied into a calendar app, which knows no page to resolve it against.
    https.setAttribute('href', `${location.origin}${ics}`);
    atom.setAttribute('href', alertsPath(slug, alertLevel, 'atom', plants));
    jsonFeed.setAttribute('href', alertsPath(slug, alertLevel, 'jsonfeed', plants));
    announceFeed(slug, name, plants);
    coming.draw();
  };
  select.addEventListener('change', () => {
    alertLevel = select.value as AlertLevel;
    update();
  });
  update();

  const level = h('p', undefined, { class: 'alert-level' });
  level.append(h('label', 'Alert me at', { for: 'alert-level' }), ' ', select, ' or above');
  const links = h('ul', undefined, { class: 'alert-links' });
  for (const link of [webcal, https, atom, jsonFeed]) {
    const item = h('li');
    item.append(link);
    links.append(item);
  }
  const watched =
    plants.length === 0
      ? 'whose worst hour reaches the level in tree, grass, weed or ragweed pollen'
      : `whose worst hour of ${plants.map((a) => a.name).join(', ')} reaches the level (each on its category's NAB range)`;
  const note = h('p', `Calendars and feed readers check again every few hours; an alert is a coming day of the forecast ${watched}.`, {
    id: 'alerts-note',
    class: 'fine',
  });
  // Google Calendar subscribes from a URL on its web site only: Settings, Add calendar, From URL
  // (https://www.hetk.io/blog/how-to-subscribe-ics-calendar-google/; from a computer, per
  // https://techzle.com/how-do-i-subscribe-to-another-users-calendar-in-google-calendar).
  const google = h(
    'p',
    'Google Calendar: copy the calendar link, then on calendar.google.com open Settings, Add calendar, From URL, and paste it.',
    { class: 'fine' },
  );
  section.append(h('h3', 'Subscribe to alerts'), level, coming.view, links, note, google);
  return section;
}
