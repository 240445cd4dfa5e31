/** The landing page: the map of a date, a list of cities, and the panel of the selected one. */
import type { Topology } from 'topojson-specification';
import { getJson, type MapFeature } from './api.js';
import { listBulkFiles } from './bulk.js';
import { freshnessText, loadHealth } from './freshness.js';
import { setUpLocate, type ListedCity } from './locate.js';
import { drawMarkers, drawStates, fitMarkers } from './map.js';
import { showCity } from './panel.js';
import { colourOf, riskOfSeverity } from './risk.js';

const $ = <T extends Element>(selector: string) => document.querySelector(selector) as T;

async function start(): Promise<void> {
  const picker = $<HTMLSelectElement>('#date');
  const svg = $<SVGSVGElement>('#map');
  const layer = $<SVGGElement>('#markers');
  const list = $<HTMLUListElement>('#city-list');
  const panel = $<HTMLElement>('#panel');
  const status = $<HTMLElement>('#map-status');
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
  picker.replaceChildren(...dates.map((d) => new Option(d, d)));

  let selected: string | undefined;
  // Each city's zone (the page shows local days and times).
  const zones = new Map(cities.map((c) => [c.slug, c.timezone]));
  const select = (slug: string) => {
    selected = slug;
    void showCity(panel, slug, names.get(slug) ?? slug, zones.get(slug) ?? 'UTC', picker.value);
  };
  setUpLocate(cities, (slug) => names.get(slug) ?? slug, select);

  let shown = 0;
  const showDate = async (date: string) => {
    const request = ++shown;
    status.textContent = `Loading ${date}…`;
    const map = await getJson<{ date: string; features: MapFeature[]; simulated?: true }>(
      `/api/map-data?date=${encodeURIComponent(date)}&timezone=local`,
    );
    if (request !== shown) return; // a later pick answers instead
    // The answer says whether its values are invented (the sample provider): the page says so above the map.
    banner.hidden = map.simulated !== true;
    drawMarkers(layer, map.features, names, select);
    list.replaceChildren(
      ...map.features.map((f) => {
        const risk = riskOfSeverity(f.properties.sev_total);
        const li = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        button.dataset.city = f.properties.city;
        button.textContent = `${names.get(f.properties.city) ?? f.properties.city}: ${risk}`;
        button.style.borderLeftColor = colourOf(risk);
        button.addEventListener('click', () => select(f.properties.city));
        li.append(button);
        return li;
      }),
    );
    status.textContent = `${map.features.length} cities on ${map.date} (each city's local day)`;
    if (selected) select(selected);
  };

  picker.addEventListener('change', () => void showDate(picker.value));
  await showDate(dates[0] ?? 'latest');
}

start().catch((error: unknown) => {
  const status = document.querySelector('#map-status');
  // The cause is for developers (the console has it); the page says what a person can do.
  console.error(error);
  if (status) status.textContent = 'The map could not be loaded. Check your connection and reload the page.';
});
