/**
 * The city panel: first how bad today and tomorrow are (today.ts), then the day's hours, top
 * species, weather, the forecast and the last 30 days, in the city's local days and time
 * (timezone=local), labelled with its zone. Weather days are UTC days.
 * Beside the forecast, how good it has been (skill.ts); below, its pollen seasons against earlier years (season.ts), and links to
 * subscribe to the city's alerts (`/api/alerts`) at a chosen level.
 */
import { usAqiCategory } from '../../domain/us-aqi.js';
import { depth, speed, temperatures } from './units.js';
import type { ForecastOutlook } from '../../api/endpoints/forecast-outlook.js';
import {
  type DayRow,
  type Forecast,
  type ForecastDay,
  type ForecastSkill,
  getJson,
  type HourRow,
  type SeasonAnswer,
  type WeatherRow,
} from './api.js';
import { chartWidth, hourlyChart, leadingCategory, SERIES, seriesLegend } from './charts.js';
import { h } from './dom.js';
import { badge, worst } from './risk.js';
import { seasonSection } from './season.js';
import { outlookStrip } from './outlook.js';
import { skillSection } from './skill.js';
import { todaySection } from './today.js';
import { alertsSection } from './alerts.js';
import { type AllergenDay, allergenSection, allergensIn, chosenOf, hoursOn, type SpeciesHour } from './allergens.js';
import type { Allergen } from '../../domain/species/allergens.js';
import { capitalized as providerName } from '../../domain/words.js';

const legend = (): HTMLElement => seriesLegend(SERIES.map((s) => ({ label: s.label, colour: s.colour, dashed: s.dash !== '' })));

/**
 * An hourly chart with its legend, shaded with the NAB levels of the category that leads it, and a
 * line saying what the shading is: that category's levels, whose line is all of its pollen.
 */
function shadedChart(rows: readonly HourRow[], title: string, zone: string, width: number): Element[] {
  const category = leadingCategory(rows);
  return [
    hourlyChart(rows, title, zone, width, category),
    legend(),
    h(
      'p',
      `Shaded behind the lines: the NAB levels of ${category} pollen. A level is reached when one ${category} allergen reaches it, so the ${category} line (all ${category} pollen) may stand in a higher band than its level.`,
      { class: 'fine' },
    ),
  ];
}

function topSpecies(day: DayRow | undefined): HTMLElement {
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

function weatherList(w: WeatherRow | undefined): HTMLElement {
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

function last30(rows: readonly DayRow[]): HTMLElement {
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
      h('th', r.hours !== undefined && r.hours < 23 ? `${r.date} (${r.hours} h)` : r.date, { scope: 'row' }),
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

/** The zone's name for people: `CDT (America/Chicago)`. */
function zoneLabel(zone: string, at: string): string {
  const short = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' })
    .formatToParts(new Date(at))
    .find((p) => p.type === 'timeZoneName')?.value;
  return short && short !== zone ? `${short}, ${zone}` : zone;
}

/**
 * Where a forecast comes from and when it was fetched, in words: the answer's provider (said to be
 * simulated on the sample), not its `source`, which says `cache` when it was read from the cache.
 */
function forecastSource(f: Forecast, zone: string): string {
  const who = f.simulated ? 'the sample provider (simulated values)' : (f.provider ?? 'the provider');
  const when =
    f.fetchedAt === null
      ? ''
      : `, fetched ${new Date(f.fetchedAt).toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: zone, timeZoneName: 'short' })}`;
  return `Forecast from ${who}${when}.`;
}

/**
 * The days a plant's level is shown on: today's remaining forecast hours and tomorrow's, or without
 * a forecast, the hours observed on the date shown.
 */
function allergenDays(
  forecast: Forecast | undefined,
  days: readonly ForecastDay[] | undefined,
  observed: readonly SpeciesHour[],
  date: string,
  zone: string,
): AllergenDay[] {
  if (forecast && days && days.length > 0)
    return days.slice(0, 2).map((d, i) => ({
      label: i === 0 ? 'Today (hours to come)' : 'Tomorrow',
      date: d.date,
      hours: hoursOn(forecast.rows, zone, d.date),
    }));
  return observed.length > 0 ? [{ label: `Observed ${date}`, date, hours: observed }] : [];
}

/** Fills the panel for a city, its zone and a date, and moves focus to its heading. */
export async function showCity(panel: HTMLElement, slug: string, name: string, zone: string, date: string): Promise<void> {
  panel.hidden = false;
  panel.replaceChildren(h('h2', `${name}, ${date}`, { tabindex: '-1', id: 'panel-title' }), h('p', 'Loading…', { role: 'status' }));
  (panel.querySelector('#panel-title') as HTMLElement).focus();
  const q = encodeURIComponent;
  const [day, daily, weather, forecast, days, seasons, skill] = await Promise.all([
    getJson<{ rows: (HourRow & SpeciesHour)[]; daily_only?: { provider: string } }>(
      `/api/pollen?city=${q(slug)}&date=${q(date)}&timezone=local`,
    ),
    getJson<{ rows: DayRow[]; simulated?: true }>(`/api/pollen?city=${q(slug)}&timezone=local`),
    getJson<{ rows: WeatherRow[] }>(`/api/weather?city=${q(slug)}&date=${q(date)}`),
    getJson<Forecast>(`/api/forecast?city=${q(slug)}`).catch((e: Error) => e),
    getJson<{ rows: ForecastDay[]; outlook?: ForecastOutlook | null }>(
      `/api/forecast?city=${q(slug)}&aggregate=day&timezone=local&days=7`,
    ).catch(() => undefined),
    getJson<SeasonAnswer>(`/api/season?city=${q(slug)}&timezone=local`).catch(() => undefined),
    // Every category and lead: the city's one static file, cached, rather than a function call per category.
    Promise.resolve<ForecastSkill['city']>(slug),
  ]);
  const label = zoneLabel(zone, day.rows[0]?.ts ?? `${date}T12:00:00Z`);
  // Charts are drawn for the panel's width, so their text keeps its size on a phone.
  const width = chartWidth(panel.clientWidth);
  const upTo = daily.rows.filter((r) => r.date <= date).slice(0, 30);

  // The reader's plants lead, and the strip and the alert links follow them as they are chosen.
  const held = allergensIn([...daily.rows, ...day.rows, ...(forecast instanceof Error ? [] : forecast.rows)]);
  // The city's today is the forecast's first local day, by the service's clock (not this browser's).
  const today = days?.rows[0]?.date;
  let strip = outlookStrip(days?.outlook, chosenOf(held), today);
  let alerts = alertsSection(slug, name, chosenOf(held));
  const mine = allergenSection(
    held,
    allergenDays(forecast instanceof Error ? undefined : forecast, days?.rows, day.rows, date, zone),
    (chosen) => {
      strip.replaceWith((strip = outlookStrip(days?.outlook, chosen, today)));
      alerts.replaceWith((alerts = alertsSection(slug, name, chosen)));
    },
  );
  const sections: HTMLElement[] = [mine, todaySection(forecast instanceof Error ? undefined : days?.rows, daily.rows), strip];
  // Said again where a person reads the city's values, which a phone shows far below the map's notice.
  if (daily.simulated)
    sections.unshift(
      h('p', 'Simulated values: the sample provider invents them for demonstration. Not for health decisions.', {
        class: 'notice simulated',
        role: 'note',
      }),
    );
  const section = (title: string, ...content: Node[]) => {
    const s = h('section');
    s.append(h('h3', title), ...content);
    sections.push(s);
  };
  section(
    `Hourly pollen (grains/m³), local time: ${label}`,
    ...(day.rows.length
      ? shadedChart(day.rows, `Hourly tree, grass and weed pollen in ${name} on ${date}, local time`, zone, width)
      : [
          h(
            'p',
            day.daily_only
              ? `${providerName(day.daily_only.provider)} gives one value a day, not hours: this day's values are the ones above.`
              : 'No observations this day.',
          ),
        ]),
  );
  section('Top species', topSpecies(upTo[0]?.date === date ? upTo[0] : undefined));
  section(`Weather and air quality (${date}, UTC day)`, weatherList(weather.rows[0]));
  // The API's 503 message is for developers (it may name a setting): the page says it plainly.
  if (forecast instanceof Error)
    section('48-hour forecast', h('p', 'The forecast is not available right now. Try again in a while.', { class: 'notice' }));
  else {
    const note = forecast.stale
      ? h(
          'p',
          `Stale: the provider could not refresh this forecast${forecast.quotaExhausted ? ' (quota spent)' : ''}; shown as fetched at ${forecast.fetchedAt ?? 'an unknown time'}.`,
          { class: 'notice stale', role: 'note' },
        )
      : h('p', forecastSource(forecast, zone), { class: 'fine' });
    // A provider that forecasts days gives no hours: its days are in the strip above, never hours drawn from them.
    if (forecast.hourly === false)
      section(
        'Forecast',
        h('p', `${providerName(forecast.provider ?? '')} forecasts one value a day, not hours: its days are in the outlook above.`),
        note,
      );
    else
      section(
        `48-hour forecast, local time: ${label}`,
        ...shadedChart(forecast.rows, `48-hour forecast for ${name}, local time`, zone, width),
        note,
      );
  }
  if (skill) sections.push(skillSection(skill, days?.rows[0] ?? daily.rows[0], seasons, width, name));
  if (seasons) sections.push(seasonSection(seasons, daily.rows, width));
  sections.push(alerts);
  section(`Last 30 days (local days, ${zone})`, last30(upTo));
  panel.replaceChildren(panel.firstElementChild!, ...sections);
}
