/**
 * The landing page: with a city known (a link, a search, the one this browser kept) its panel
 * first, built around its today; without one, the search. Below, the map of a day (today and
 * tomorrow from the forecast where the site has it, else the latest complete day, or one picked)
 * and the list of cities.
 */
import type { Topology } from 'topojson-specification';
import { dateInWords } from '../../domain/dates.js';
import type { Graded } from '../../domain/species/risk.js';
import { getJson, type MapFeature } from './api.js';
import { listBulkFiles } from './bulk.js';
import { cityToOpen, keepCity, setUpCitySearch } from './city-search.js';
import { freshnessText, loadHealth } from './freshness.js';
import { cityNames, type ListedCity, setUpLocate } from './locate.js';
import { cityItem, drawMarkers, drawStates, fitMarkers } from './map.js';
import { type MapChoice, mapChoices, mapPath, optionText } from './map-days.js';
import { showCity } from './panel.js';
import { keepUnits, unitsInUse } from './units.js';

const $ = <T extends Element>(selector: string) => document.querySelector(selector) as T;

/** The header's freshness line, from /api/health. */
function showFreshness(): void {
  const freshness = $<HTMLElement>('#freshness');
  loadHealth().then(
    (h) => {
      freshness.textContent = freshnessText(h);
      freshness.classList.toggle('stale', h.status === 'stale');
    },
    () => (freshness.textContent = ''),
  );
}

/** The footer's bulk files: their manifest is fetched only when a reader opens the list. */
function bulkOnOpen(): void {
  const details = $<HTMLDetailsElement>('#bulk');
  details.addEventListener('toggle', () => details.open && listBulkFiles().catch(() => undefined), { once: true });
}

async function start(): Promise<void> {
  const panel = $<HTMLElement>('#panel');
  const layout = $<HTMLElement>('.layout');
  showFreshness();
  bulkOnOpen();
  const { cities } = await getJson<{ cities: ListedCity[] }>('/api/cities');
  const names = cityNames(cities);
  const zones = new Map(cities.map((c) => [c.slug, c.timezone]));
  let selected: string | undefined;
  const select = (slug: string) => {
    selected = slug;
    layout.classList.add('with-city');
    keepCity(slug);
    void showCity(panel, slug, names.get(slug) ?? slug, zones.get(slug) ?? 'UTC');
  };
  setUpLocate(cities, (slug) => names.get(slug) ?? slug, select);
  setUpCitySearch(cities, select);
  // The city first: its panel loads while the map does.
  const first = cityToOpen(cities);
  if (first) select(first);
  // US units unless the reader asks for metric, which this browser remembers; the open city is written again in them.
  const unitsButton = $<HTMLButtonElement>('#units');
  unitsButton.setAttribute('aria-pressed', String(unitsInUse() === 'metric'));
  unitsButton.addEventListener('click', () => {
    keepUnits(unitsInUse() === 'metric' ? 'us' : 'metric');
    unitsButton.setAttribute('aria-pressed', String(unitsInUse() === 'metric'));
    if (selected) select(selected);
  });
  await startMap(names, select);
}

/** The map and the city list, on the day picked, coloured as picked. */
async function startMap(names: Map<string, string>, select: (slug: string) => void): Promise<void> {
  const picker = $<HTMLSelectElement>('#date');
  const other = $<HTMLInputElement>('#other-date');
  const colourBy = $<HTMLSelectElement>('#colour-by');
  const svg = $<SVGSVGElement>('#map');
  const layer = $<SVGGElement>('#markers');
  const list = $<HTMLUListElement>('#city-list');
  const status = $<HTMLElement>('#map-status');
  const banner = $<HTMLElement>('#simulated');
  const [{ dates }, topology] = await Promise.all([
    getJson<{ dates: string[] }>('/api/available-dates'),
    getJson<Topology>('/assets/us-states.json'),
  ]);
  drawStates(svg, topology);
  fitMarkers(svg, layer);
  let shown = 0;
  let features: MapFeature[] = [];
  const draw = () => {
    const by = colourBy.value === '' ? undefined : (colourBy.value as Graded);
    drawMarkers(layer, features, names, select, by);
    list.replaceChildren(
      ...features.map((f) =>
        cityItem(f.properties.city, names.get(f.properties.city) ?? f.properties.city, f.properties.sev_total, select),
      ),
    );
  };
  const showDay = async (choice: MapChoice): Promise<string | undefined> => {
    const request = ++shown;
    status.textContent = `Loading ${choice.label}…`;
    const map = await getJson<{ date: string; features: MapFeature[]; simulated?: true; forecast?: true }>(mapPath(choice)).catch(
      () => undefined,
    );
    if (request !== shown) return undefined; // a later pick answers instead
    if (!map) {
      status.textContent = `The map of ${choice.label} could not be loaded.`;
      return undefined;
    }
    // The answer says whether its values are invented (the sample provider): the map says so above it.
    banner.hidden = map.simulated !== true;
    features = map.features;
    draw();
    status.textContent =
      choice.kind === 'forecast'
        ? `${map.features.length} of ${names.size} cities with a forecast for ${choice.label} (dashed markers), each city's own day: a city's forecast is on the map once someone has read it.`
        : `${map.features.length} cities measured on ${dateInWords(map.date, 'long')}, each city's local day.`;
    return map.date;
  };
  let choices = mapChoices(dates);
  // The map opens on the latest complete day: every city has it, while a forecast is on the map once someone asked for it.
  const opening = () => String(choices.findIndex((c) => c.kind === 'measured'));
  const fill = () => {
    picker.replaceChildren(...choices.map((c, i) => new Option(optionText(c), String(i))), new Option('Another day…', 'other'));
    picker.value = opening();
  };
  fill();
  other.min = dates.at(-1) ?? '';
  other.max = dates[0] ?? '';
  picker.addEventListener('change', () => {
    other.hidden = picker.value !== 'other';
    if (picker.value === 'other') return other.focus();
    void showDay(choices[Number(picker.value)]!);
  });
  other.addEventListener('change', () => other.value && void showDay({ kind: 'measured', date: other.value, label: other.value }));
  colourBy.addEventListener('change', draw);
  const latest = await showDay(choices[Number(picker.value)]!);
  // The days before it are known once `latest` is resolved.
  if (latest && picker.value === opening()) {
    choices = mapChoices(dates, latest);
    fill();
  }
}

start().catch((error: unknown) => {
  const status = document.querySelector('#map-status');
  // The cause is for developers (the console has it); the page says what a person can do.
  console.error(error);
  if (status) status.textContent = 'The map could not be loaded. Check your connection and reload the page.';
});
