/**
 * What was measured: a past day's top species and weather, and the last 30 days, each labelled as
 * past so that no reader takes them for today.
 */
import { dateInWords } from '../../domain/dates.js';
import { usAqiCategory } from '../../domain/us-aqi.js';
import type { DayRow, WeatherRow } from './api.js';
import { h } from './dom.js';
import { badge, worst } from './risk.js';
import { depth, speed, temperatures } from './units.js';

export function topSpecies(day: DayRow | undefined): HTMLElement {
  const list = Object.entries(day?.species ?? {}).flatMap(([category, group]) =>
    group !== null && typeof group === 'object'
      ? Object.entries(group).map(([name, v]) => [`${name} (${category})`, v] as const)
      : [[category, group] as const],
  );
  const top = list
    .filter((e): e is readonly [string, number] => typeof e[1] === 'number' && e[1] > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5);
  if (top.length === 0) return h('p', 'No species reported for this day.');
  const ol = h('ol', undefined, { class: 'species' });
  for (const [name, v] of top) ol.append(h('li', `${name}: ${v} grains/m³`));
  return ol;
}

export function weatherList(w: WeatherRow | undefined): HTMLElement {
  if (!w) return h('p', 'No weather for this day.');
  const dl = h('dl', undefined, { class: 'weather' });
  const add = (term: string, value: string | undefined) => {
    if (value === undefined) return;
    dl.append(h('dt', term), h('dd', value));
  };
  add('Sky', w.weather_desc);
  add('Temperature', w.temp_min_c !== undefined && w.temp_max_c !== undefined ? temperatures(w.temp_min_c, w.temp_max_c) : undefined);
  add('Humidity', w.humidity !== undefined ? `${w.humidity} %` : undefined);
  add('Wind', w.wind_speed_ms !== undefined ? speed(w.wind_speed_ms) : undefined);
  add('Precipitation', w.precip_mm !== undefined ? depth(w.precip_mm) : undefined);
  add('Air quality', airQuality(w));
  return dl;
}

/** The EPA's index where the day's particulate matter gives it; else the provider's own scale, named as such. */
function airQuality(w: WeatherRow): string | undefined {
  if (w.aqi_us !== undefined) return `AQI ${w.aqi_us}: ${usAqiCategory(w.aqi_us)} (EPA scale, set by ${w.aqi_us_pollutant})`;
  if (w.aqi === undefined) return undefined;
  return `${w.aqi} of 5, ${['', 'good', 'fair', 'moderate', 'poor', 'very poor'][w.aqi]} (the provider's scale, not the EPA's)`;
}

export function last30(rows: readonly DayRow[]): HTMLElement {
  const table = h('table', undefined, { class: 'days' });
  table.append(h('caption', 'Daily means with the worst hour of each day'));
  const head = h('tr');
  for (const c of ['Date', 'Tree', 'Grass', 'Weed', 'Worst hour']) head.append(h('th', c, { scope: 'col' }));
  table.append(h('thead'), h('tbody'));
  table.tHead!.append(head);
  for (const r of rows) {
    const tr = h('tr');
    // A local day missing hours: the first of the store, or the newest while its end is not ingested.
    tr.append(
      h('th', r.hours !== undefined && r.hours > 0 && r.hours < 23 ? `${dateInWords(r.date)} (${r.hours} h)` : dateInWords(r.date), {
        scope: 'row',
        'data-date': r.date,
      }),
      h('td', String(r.tree ?? '–')),
      h('td', String(r.grass ?? '–')),
      h('td', String(r.weed ?? '–')),
    );
    const td = h('td');
    td.append(badge(worst(r.peak_risk_tree, r.peak_risk_grass, r.peak_risk_weed)));
    tr.append(td);
    table.tBodies[0]!.append(tr);
  }
  return table;
}
