/**
 * The landing page: the map of a day (the latest complete one unless another is picked), a list
 * of cities, and the panel of the city opened, kept in the address and in this browser.
 */
import type { Topology } from 'topojson-specification';
import { DAY_MS } from '../../domain/dates.js';
import { getJson, type MapFeature } from './api.js';
import { listBulkFiles } from './bulk.js';
import { freshnessText, loadHealth } from './freshness.js';
import { cityToOpen, keepCity, setUpCitySearch } from './city-search.js';
import { setUpLocate, type ListedCity } from './locate.js';
import { keepUnits, unitsInUse } from './units.js';
import { showCity } from './panel.js';
import { cityItem, drawMarkers, drawStates, fitMarkers } from './map.js';

const $ = <T extends Element>(selector: string) => document.querySelector(selector) as T;

async function start(): Promise<void> {
  const picker = $<HTMLSelectElement>('#date');
  const svg = $<SVGSVGElement>('#map');
  const layer = $<SVGGElement>('#markers');
  const list = $<HTMLUListElement>('#city-list');
  const panel = $<HTMLElement>('#panel');
  const status = $<HTMLElement>('#map-status');
  const layout = $<HTMLElement>('.layout');
  const freshness = $<HTMLElement>('#freshness');
  const banner = $<HTMLElement>('#simulated');
  listBulkFiles().catch(() => undefined); // the manifest link stays
  loadHealth().then(
    (h) => {
      freshness.textContent = freshnessText(h);
      freshness.classList.toggle('stale', h.status === 'stale');
    },
    () => (freshness.textContent = ''),
  );

  const [{ cities }, { dates }, topology] = await Promise.all([
    getJson<{ cities: ListedCity[] }>('/api/cities'),
    getJson<{ dates: string[] }>('/api/available-dates'),
    getJson<Topology>('/assets/us-states.json'),
  ]);
  // A name that repeats (Columbus, Springfield) is shown with its state.
  const count = new Map<string, number>();
  for (const c of cities) count.set(c.name, (count.get(c.name) ?? 0) + 1);
  const names = new Map(cities.map((c) => [c.slug, count.get(c.name)! > 1 ? `${c.name}, ${c.state}` : c.name]));
  drawStates(svg, topology);
  fitMarkers(svg, layer);

  let selected: string | undefined;
  // The day the map shows, as the API resolved it (`latest` is the newest local day complete in every city).
  let shownDate = dates[0] ?? '';
  // Each city's zone (the page shows local days and times).
  const zones = new Map(cities.map((c) => [c.slug, c.timezone]));
  const select = (slug: string) => {
    selected = slug;
    layout.classList.add('with-city');
    keepCity(slug);
    void showCity(panel, slug, names.get(slug) ?? slug, zones.get(slug) ?? 'UTC', shownDate);
  };
  setUpLocate(cities, (slug) => names.get(slug) ?? slug, select);
  setUpCitySearch(cities, select);
  // US units unless the reader asks for metric, which this browser remembers; the open city is written again in them.
  const unitsButton = $<HTMLButtonElement>('#units');
  unitsButton.setAttribute('aria-pressed', String(unitsInUse() === 'metric'));
  unitsButton.addEventListener('click', () => {
    keepUnits(unitsInUse() === 'metric' ? 'us' : 'metric');
    unitsButton.setAttribute('aria-pressed', String(unitsInUse() === 'metric'));
    if (selected) select(selected);
  });

  let shown = 0;
  const showDate = async (date: string) => {
    const request = ++shown;
    status.textContent = `Loading ${date}…`;
    const map = await getJson<{ date: string; features: MapFeature[]; simulated?: true }>(
      `/api/map-data?date=${encodeURIComponent(date)}&timezone=local`,
    );
    if (request !== shown) return; // a later pick answers instead
    shownDate = map.date;
    if (date === 'latest') picker.replaceChildren(...dayChoices(map.date, dates));
    // The answer says whether its values are invented (the sample provider): the page says so above the map.
    banner.hidden = map.simulated !== true;
    drawMarkers(layer, map.features, names, select);
    list.replaceChildren(
      ...map.features.map((f) =>
        cityItem(f.properties.city, names.get(f.properties.city) ?? f.properties.city, f.properties.sev_total, select),
      ),
    );
    status.textContent = `${map.features.length} cities on ${map.date} (each city's ${date === 'latest' ? 'latest complete ' : ''}local day)`;
    if (selected) select(selected);
  };

  picker.addEventListener('change', () => void showDate(picker.value));
  picker.replaceChildren(new Option('Latest complete day', 'latest'));
  selected = cityToOpen(cities);
  if (selected) layout.classList.add('with-city');
  await showDate('latest');
}

/**
 * The days the map can show: the latest complete local day first, in words, then every date with
 * data, those after it marked as days whose hours are still coming in.
 */
function dayChoices(latest: string, dates: readonly string[]): HTMLOptionElement[] {
  return [
    new Option(`Latest complete day: ${dayInWords(latest)}`, 'latest'),
    ...dates.map((d) => new Option(d > latest ? `${d} (hours so far)` : d, d)),
  ];
}

/** "yesterday, Thu, Apr 9", "Thu, Apr 9, 2025": a date as a person reads it, against this browser's today. */
function dayInWords(date: string, now = new Date()): string {
  const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
  const day = Date.parse(`${date}T00:00:00Z`);
  const ago = Math.round((today - day) / DAY_MS);
  const named = new Date(day).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    ...(ago > 300 || ago < 0 ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  });
  return ago === 0 ? `today, ${named}` : ago === 1 ? `yesterday, ${named}` : named;
}

start().catch((error: unknown) => {
  const status = document.querySelector('#map-status');
  // The cause is for developers (the console has it); the page says what a person can do.
  console.error(error);
  if (status) status.textContent = 'The map could not be loaded. Check your connection and reload the page.';
});
