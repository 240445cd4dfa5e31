/**
 * The city panel, built around the city's today: its name and today's date, today's and
 * tomorrow's level for the reader's plants (today.ts), the plant picker, the 7-day strip
 * (outlook.ts), both from one answer per day (day-answers.ts); then, labelled as such, the latest
 * measured day, the 48-hour forecast, how good the forecast has been (skill.ts), the seasons
 * (season.ts), alerts (alerts.ts) and the last 30 days. The first lines are drawn as soon as the
 * forecast answers; the rest follows.
 */

import type { ProviderForecastDay } from '../../api/endpoints/forecast.js';
import type { ForecastOutlook } from '../../api/endpoints/forecast-outlook.js';
import { dateInWords } from '../../domain/dates.js';
import { type Allergen, outlookCategory } from '../../domain/species/allergens.js';
import { capitalized as providerName } from '../../domain/words.js';
import { alertsSection } from './alert-subscriptions.js';
import { allergenSection, allergensIn, chosenOf, type SpeciesHour } from './allergens.js';
import { type DayRow, type Forecast, type ForecastDay, getJson, type HourRow, type SeasonAnswer, type WeatherRow } from './api.js';
import { chartWidth, hourlyChart, leadingCategory, SERIES, seriesLegend } from './charts.js';
import { cityToday, dayAnswers } from './day-answers.js';
import { h } from './dom.js';
import { last30, topSpecies, weatherList } from './measured.js';
import { outlookStrip } from './outlook.js';
import { seasonSection } from './season.js';
import { skillSection } from './skill.js';
import { todaySection } from './today.js';

const legend = (): HTMLElement => seriesLegend(SERIES.map((s) => ({ label: s.label, colour: s.colour, dashed: s.dash !== '' })));

/** An hourly chart with its legend, shaded with the levels of the category that leads it, and a line saying so. */
function shadedChart(rows: readonly HourRow[], title: string, zone: string, width: number): Element[] {
  const category = leadingCategory(rows);
  return [
    hourlyChart(rows, title, zone, width, category),
    legend(),
    h(
      'p',
      `Shaded behind the lines: the levels of ${category} pollen. A level is reached when one ${category} plant reaches it, so the ${category} line (all ${category} pollen) may stand in a higher band than its level.`,
      { class: 'fine' },
    ),
  ];
}

/** The zone's name for people: `CDT (America/Chicago)`. */
function zoneLabel(zone: string, at: string): string {
  const short = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' })
    .formatToParts(new Date(at))
    .find((p) => p.type === 'timeZoneName')?.value;
  return short && short !== zone ? `${short}, ${zone}` : zone;
}

/** Where a forecast comes from and when it was fetched: its provider (simulated on the sample), not its `source`. */
function forecastSource(f: Forecast, zone: string): string {
  const who = f.simulated ? 'the sample provider (simulated values)' : providerName(f.provider ?? 'the provider');
  const when =
    f.fetchedAt === null
      ? ''
      : `, fetched ${new Date(f.fetchedAt).toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: zone, timeZoneName: 'short' })}`;
  return `Forecast from ${who}${when}.`;
}

type Days = { rows: ForecastDay[]; outlook?: ForecastOutlook | null; provider_days?: ProviderForecastDay[] };

/** The forecast's answers the first lines need: its days with the outlook, and its hours (for plants). */
async function forecastOf(slug: string): Promise<{ days: Days | undefined; hourly: Forecast | Error }> {
  const q = encodeURIComponent(slug);
  const [days, hourly] = await Promise.all([
    getJson<Days>(`/api/forecast?city=${q}&aggregate=day&timezone=local&days=7`).catch(() => undefined),
    getJson<Forecast>(`/api/forecast?city=${q}`).catch((e: Error) => e),
  ]);
  return { days, hourly };
}

/** A section with its title. */
const section = (title: string, ...content: Node[]): HTMLElement => {
  const s = h('section');
  s.append(h('h3', title), ...content);
  return s;
};

/** A table that may scroll inside itself, with a cue that it does. */
function scrolling(table: HTMLElement, label: string): HTMLElement {
  const wrap = h('div', undefined, { class: 'scroll-x', tabindex: '0', role: 'region', 'aria-label': label });
  wrap.append(table);
  return wrap;
}

/** The newest day measured whole (a daily provider's days are whole), from daily rows newest first. */
const latestWhole = (rows: readonly DayRow[]) => rows.find((r) => r.hours === undefined || r.hours === 0 || r.hours >= 23);

/** The first lines: today and tomorrow, the picker and the strip, redrawn as plants are picked. */
function topOfPanel(
  first: Awaited<ReturnType<typeof forecastOf>>,
  observed: readonly DayRow[],
  zone: string,
  onPlants: (chosen: Allergen[]) => void,
): { elements: HTMLElement[]; chosen: Allergen[] } {
  const hourly: readonly SpeciesHour[] = first.hourly instanceof Error ? [] : first.hourly.rows;
  const days: Array<ForecastDay | ProviderForecastDay> = [
    ...(first.days?.rows ?? []),
    ...(first.days?.provider_days ?? []).filter((p) => !first.days?.rows.some((r) => r.date === p.date)),
  ];
  const held = allergensIn([...observed, ...hourly, ...days]);
  const provider =
    first.hourly instanceof Error ? undefined : first.hourly.simulated ? 'the sample provider' : providerName(first.hourly.provider ?? '');
  const answersFor = (chosen: readonly Allergen[]) => dayAnswers({ days, hourly, zone, outlook: first.days?.outlook, chosen });
  const chosen = chosenOf(held);
  const answers = answersFor(chosen);
  let today = todaySection(answers, observed, provider);
  let strip = outlookStrip(answers, first.days?.outlook);
  const picker = allergenSection(held, (picked) => {
    const redrawn = answersFor(picked);
    today.replaceWith((today = todaySection(redrawn, observed, provider)));
    strip.replaceWith((strip = outlookStrip(redrawn, first.days?.outlook)));
    onPlants(picked);
  });
  return { elements: [today, picker, strip], chosen };
}

/** Counts the panels drawn: a city opened while another still loads wins. */
let drawn = 0;

/** Fills the panel for a city and its zone, and moves focus to its heading. */
export async function showCity(panel: HTMLElement, slug: string, name: string, zone: string): Promise<void> {
  const mine = ++drawn;
  panel.hidden = false;
  const title = h('h2', name, { tabindex: '-1', id: 'panel-title' });
  const when = h('p', 'Loading…', { class: 'panel-day' });
  panel.replaceChildren(title, when);
  title.focus();
  const q = encodeURIComponent(slug);
  const dailyAnswer = getJson<{ rows: DayRow[]; simulated?: true }>(`/api/pollen?city=${q}&timezone=local`).catch(() => ({
    rows: [] as DayRow[],
  }));
  const seasonsAnswer = getJson<SeasonAnswer>(`/api/season?city=${q}&timezone=local`).catch(() => undefined);
  const first = await forecastOf(slug);
  const today = cityToday({ days: first.days?.rows ?? [], outlook: first.days?.outlook });
  // Without a forecast, the first lines are the latest days measured: they wait for the daily rows.
  const observed = today ? [] : (await dailyAnswer).rows;
  if (mine !== drawn) return;
  when.textContent = today ? `Today is ${dateInWords(today, 'long')} in ${name}.` : `No forecast for ${name} right now.`;
  let alerts: HTMLElement | undefined;
  let seasons: HTMLElement | undefined;
  let seasonsFor = (_picked: readonly Allergen[]): HTMLElement | undefined => undefined;
  const top = topOfPanel(first, observed, zone, (picked) => {
    chosen = picked;
    alerts?.replaceWith((alerts = alertsSection(slug, name, picked)));
    const next = seasonsFor(picked);
    if (seasons && next) seasons.replaceWith((seasons = next));
  });
  let chosen = top.chosen;
  // Appended after the heading, never re-inserting it, so that it keeps the focus.
  panel.append(...top.elements);
  const [daily, seasonAnswer] = await Promise.all([dailyAnswer, seasonsAnswer]);
  const rest = await restOfPanel(panel, slug, name, zone, first, daily, seasonAnswer);
  if (mine !== drawn) return;
  seasonsFor = rest.seasonsFor;
  seasons = seasonsFor(chosen);
  alerts = alertsSection(slug, name, chosen);
  panel.append(...rest.before, ...(seasons ? [seasons] : []), alerts, ...rest.after);
}

/** The sections below the first lines: the latest measured day, the forecast's hours, skill, seasons and past days. */
async function restOfPanel(
  panel: HTMLElement,
  slug: string,
  name: string,
  zone: string,
  first: Awaited<ReturnType<typeof forecastOf>>,
  daily: { rows: DayRow[]; simulated?: true },
  seasonAnswer: SeasonAnswer | undefined,
): Promise<{ before: HTMLElement[]; after: HTMLElement[]; seasonsFor: (picked: readonly Allergen[]) => HTMLElement | undefined }> {
  const q = encodeURIComponent(slug);
  const width = chartWidth(panel.clientWidth);
  const past = latestWhole(daily.rows);
  const before: HTMLElement[] = [];
  // Said again where a person reads the city's values, which a phone shows far below the map's notice.
  if (daily.simulated)
    before.push(
      h('p', 'Simulated values: the sample provider invents them for demonstration. Not for health decisions.', {
        class: 'notice simulated',
        role: 'note',
      }),
    );
  if (past) before.push(await measuredSection(q, name, zone, past, width));
  before.push(forecastHours(first.hourly, name, zone, width));
  before.push(skillSection(slug, first.days?.rows[0] ?? daily.rows[0], seasonAnswer, width, name));
  const seasonsFor = (picked: readonly Allergen[]) =>
    seasonAnswer ? seasonSection(seasonAnswer, daily.rows, width, picked[0] ? outlookCategory(picked[0]) : undefined) : undefined;
  const upTo = daily.rows.slice(0, 30);
  const after = [section(`Last 30 days measured (local days, ${zone})`, scrolling(last30(upTo), 'Last 30 days measured'))];
  return { before, after, seasonsFor };
}

/** The latest day measured whole, said as past: its hours, top plants and weather. */
async function measuredSection(q: string, name: string, zone: string, past: DayRow, width: number): Promise<HTMLElement> {
  const [day, weather] = await Promise.all([
    getJson<{ rows: (HourRow & SpeciesHour)[]; daily_only?: { provider: string } }>(
      `/api/pollen?city=${q}&date=${past.date}&timezone=local`,
    ).catch(() => ({ rows: [] as (HourRow & SpeciesHour)[] })),
    getJson<{ rows: WeatherRow[] }>(`/api/weather?city=${q}&date=${past.date}`).catch(() => ({ rows: [] as WeatherRow[] })),
  ]);
  const label = zoneLabel(zone, day.rows[0]?.ts ?? `${past.date}T12:00:00Z`);
  const s = h('section', undefined, { class: 'measured' });
  s.append(h('h3', `${dateInWords(past.date, 'long')}: measured`));
  if (day.rows.length > 0)
    s.append(
      h('h4', `Pollen by hour (grains/m³), ${label}`),
      ...shadedChart(day.rows, `Hourly tree, grass and weed pollen in ${name} on ${past.date}, local time`, zone, width),
    );
  else if ('daily_only' in day && day.daily_only)
    s.append(h('p', `${providerName(day.daily_only.provider)} gives one value a day, not hours.`));
  s.append(h('h4', 'Top plants'), topSpecies(past), h('h4', 'Weather and air quality'), weatherList(weather.rows[0]));
  return s;
}

/** The forecast's next 48 hours as a chart, or why there is none. */
function forecastHours(forecast: Forecast | Error, name: string, zone: string, width: number): HTMLElement {
  // The API's 503 message is for developers (it may name a setting): the page says it plainly.
  if (forecast instanceof Error)
    return section('The next 48 hours', h('p', 'The forecast is not available right now. Try again in a while.', { class: 'notice' }));
  const note = forecast.stale
    ? h(
        'p',
        `Stale: the provider could not refresh this forecast${forecast.quotaExhausted ? ' (quota spent)' : ''}; shown as fetched at ${forecast.fetchedAt ?? 'an unknown time'}.`,
        { class: 'notice stale', role: 'note' },
      )
    : h('p', forecastSource(forecast, zone), { class: 'fine' });
  // A provider that forecasts days gives no hours: its days are in the strip, never hours drawn from them.
  if (forecast.hourly === false)
    return section(
      'Forecast',
      h('p', `${providerName(forecast.provider ?? '')} forecasts one value a day, not hours: its days are in the strip above.`),
      note,
    );
  const label = zoneLabel(zone, forecast.rows[0]?.ts ?? new Date().toISOString());
  return section(
    `The next 48 hours, ${label}`,
    ...shadedChart(forecast.rows, `48-hour forecast for ${name}, local time`, zone, width),
    note,
  );
}
