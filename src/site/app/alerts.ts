/**
 * Alerts a person subscribes to: the city's `/api/alerts` at a chosen level, for the reader's
 * plants where they chose some, as a calendar subscription, a download, an Atom feed and a JSON Feed.
 */
import { ALERT_LEVELS, DEFAULT_LEVEL, type AlertLevel } from '../../domain/species/risk.js';
import type { Allergen } from '../../domain/species/allergens.js';
import { h } from './dom.js';

/** The level chosen: the API's default until someone picks another; kept when the panel is drawn again. */
let alertLevel: AlertLevel = DEFAULT_LEVEL;

/**
 * `/api/alerts` of a city at a level in a format, its parameters in the API's order (city, min,
 * species, format): the reader's plants where they chose some, else (no `categories`, no `species`)
 * every category.
 */
function alertsPath(slug: string, level: AlertLevel, format: 'ics' | 'atom' | 'jsonfeed', plants: readonly Allergen[]): string {
  const species = plants.length === 0 ? '' : `&species=${plants.map((a) => encodeURIComponent(a.slug)).join(',')}`;
  return `/api/alerts?city=${encodeURIComponent(slug)}&min=${encodeURIComponent(level)}${species}&format=${format}`;
}

/** The page's `<link rel="alternate">` to the selected city's Atom feed of alerts, for feed readers. */
function announceFeed(slug: string, name: string, plants: readonly Allergen[]): void {
  let link = document.head.querySelector<HTMLLinkElement>('link#alerts-feed');
  if (!link) document.head.append((link = h('link', undefined, { id: 'alerts-feed', rel: 'alternate', type: 'application/atom+xml' })));
  link.href = alertsPath(slug, alertLevel, 'atom', plants);
  link.title = `Pollen alerts for ${name}: ${alertLevel} or above${plants.length === 0 ? '' : ` in ${plants.map((a) => a.name).join(', ')}`}`;
}

/**
 * Subscribe to alerts: a level and the city's alerts at it as a calendar subscription (webcal:,
 * which calendar apps fetch over http or https; the same file over this page's scheme to download),
 * an Atom feed and a JSON Feed. The links follow the level.
 */
export function alertsSection(slug: string, name: string, plants: readonly Allergen[]): HTMLElement {
  const section = h('section', undefined, { class: 'alerts' });
  const select = h('select', undefined, { id: 'alert-level', 'aria-describedby': 'alerts-note' });
  select.append(...ALERT_LEVELS.map((l) => new Option(l, l, l === DEFAULT_LEVEL, l === alertLevel)));
  const calendar = h('a', 'Calendar', { type: 'text/calendar' });
  const download = h('a', 'download .ics', { type: 'text/calendar', download: `pollen-alerts-${slug}.ics` });
  const atom = h('a', 'Atom feed', { type: 'application/atom+xml' });
  const jsonFeed = h('a', 'JSON Feed', { type: 'application/feed+json' });
  const update = () => {
    calendar.setAttribute('href', `webcal://${location.host}${alertsPath(slug, alertLevel, 'ics', plants)}`);
    download.setAttribute('href', alertsPath(slug, alertLevel, 'ics', plants));
    atom.setAttribute('href', alertsPath(slug, alertLevel, 'atom', plants));
    jsonFeed.setAttribute('href', alertsPath(slug, alertLevel, 'jsonfeed', plants));
    announceFeed(slug, name, plants);
  };
  select.addEventListener('change', () => {
    alertLevel = select.value as AlertLevel;
    update();
  });
  update();

  const level = h('p', undefined, { class: 'alert-level' });
  level.append(h('label', 'Alert me at', { for: 'alert-level' }), ' ', select, ' or above');
  const links = h('ul', undefined, { class: 'alert-links' });
  const item = (...content: (Node | string)[]) => {
    const li = h('li');
    li.append(...content);
    links.append(li);
  };
  item(calendar, ' (subscribe) or ', download);
  item(atom);
  item(jsonFeed);
  const watched =
    plants.length === 0
      ? 'whose worst hour reaches the level in tree, grass, weed or ragweed pollen'
      : `whose worst hour of ${plants.map((a) => a.name).join(', ')} reaches the level (each on its category's NAB range)`;
  const note = h('p', `Calendars and feed readers check again every few hours; an alert is a local day of the next 48 hours ${watched}.`, {
    id: 'alerts-note',
    class: 'fine',
  });
  section.append(h('h3', 'Subscribe to alerts'), level, links, note);
  return section;
}
