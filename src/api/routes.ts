/**
 * The one route list. Each route names its handler and the static forms of its answers: which
 * query parameters a form has, the file it is rendered to, and the parameter values to render.
 * The renderer renders unit by unit (each city, each date, and the files made once), asking each
 * form for its parameter sets within a unit; `_redirects` is generated from the forms, and the
 * fallback function maps a file path back to its request with them.
 */
import { dayString } from '../domain/dates.js';
import type { StoreReader } from '../store/reader.js';
import { alerts } from './alerts.js';
import { availableDates } from './available-dates.js';
import { cities } from './cities.js';
import { discovery } from './discovery.js';
import { forecast } from './forecast.js';
import type { Handler } from './handler.js';
import { health } from './health.js';
import { latestDate } from './latest-date.js';
import { mapData } from './map-data.js';
import { nearest } from './nearest.js';
import { pollen } from './pollen.js';
import { pollenRange } from './pollen-range.js';
import { weather } from './weather.js';

export type Params = Record<string, string>;

/**
 * A piece of a render: the files made once, or those of one city, or of one UTC day (with
 * whether the store has pollen and weather on it, and whether the day's city-day files fit the
 * deploy's file budget). Units are independent of each other, so workers render them side by side.
 */
export type Unit =
  | { kind: 'once' }
  | { kind: 'city'; city: string }
  | { kind: 'date'; day: number; pollen: boolean; weather: boolean; cityDays: boolean };

export interface StaticForm {
  /** The file under the publish folder, with `{name}` for each parameter. */
  file: string;
  /** Parameters with one value in every request of the form (`timezone=local`). */
  fixed?: Params;
  /** The kind of unit whose render writes this form's files. */
  unit: Unit['kind'];
  /** The parameter sets to render in this form within a unit of its kind. */
  enumerate: (store: StoreReader, unit: Unit) => Iterable<Params>;
  /**
   * A file per city-day: rendered only for the newest days that fit the deploy's file budget
   * (`unit.cityDays`); the fallback function answers the others from the same handler.
   */
  perCityDay?: true;
}

export interface Route {
  path: string;
  handler: Handler;
  /** In matching order: a file name without parameters before a `{city}` one it would also match. */
  forms: readonly StaticForm[];
  /** Answers that change only with a deploy, though not rendered (the CDN keeps them until the next). */
  untilDeploy?: true;
}

/** Where rendered API answers live under the publish folder; the fallback function serves its misses. */
export const DATA_PREFIX = 'data';

/** The local-day forms' fixed parameter. */
export const LOCAL: Params = { timezone: 'local' };

const once = (): Params[] => [{}];
/**
 * Rendered only when the store has data: an empty store's latest date is the fallback's 404.
 * (The parameterless forms of routes that take parameters are not rendered at all: see
 * netlify.toml, they reach the fallback function whatever their query.)
 */
const ifData = (store: StoreReader): Params[] => (store.pollen.latestDay() === null ? [] : [{}]);
const theCity = (_: StoreReader, u: Unit): Params[] => (u.kind === 'city' ? [{ city: u.city }] : []);
const ifPollen = (_: StoreReader, u: Unit): Params[] => (u.kind === 'date' && u.pollen ? [{ date: dayString(u.day) }] : []);
const ifWeather = (_: StoreReader, u: Unit): Params[] => (u.kind === 'date' && u.weather ? [{ date: dayString(u.day) }] : []);
/** Each city with data on the day; other city-days answer empty rows from the fallback function. */
const citiesOn =
  (kind: 'pollen' | 'weather') =>
  (store: StoreReader, u: Unit): Params[] =>
    u.kind !== 'date'
      ? []
      : (kind === 'pollen' ? store.pollen.citiesWithDataOn(u.day) : store.weather.citiesOn(u.day)).map((city) => ({
          city,
          date: dayString(u.day),
        }));

export const ROUTES: readonly Route[] = [
  { path: '/api/cities', handler: cities, forms: [{ file: `${DATA_PREFIX}/cities.json`, unit: 'once', enumerate: once }] },
  {
    path: '/api/available-dates',
    handler: availableDates,
    forms: [{ file: `${DATA_PREFIX}/available-dates.json`, unit: 'once', enumerate: once }],
  },
  { path: '/api/latest-date', handler: latestDate, forms: [{ file: `${DATA_PREFIX}/latest-date.json`, unit: 'once', enumerate: ifData }] },
  {
    path: '/api/pollen',
    handler: pollen,
    forms: [
      { file: `${DATA_PREFIX}/pollen/by-date/{date}.json`, unit: 'date', enumerate: ifPollen },
      { file: `${DATA_PREFIX}/pollen/{city}/{date}.json`, unit: 'date', enumerate: citiesOn('pollen'), perCityDay: true },
      { file: `${DATA_PREFIX}/pollen/{city}.json`, unit: 'city', enumerate: theCity },
      // Local days: a city's daily rows and each date across cities. A city's hours of one local
      // day are the fallback function's (CDN-cached): rendered, they would add a file per
      // city-day, half again the deploy at 200 cities (docs/architecture.md, "The render").
      { file: `${DATA_PREFIX}/pollen-local/by-date/{date}.json`, fixed: LOCAL, unit: 'date', enumerate: ifPollen },
      { file: `${DATA_PREFIX}/pollen-local/{city}.json`, fixed: LOCAL, unit: 'city', enumerate: theCity },
    ],
  },
  {
    path: '/api/map-data',
    handler: mapData,
    forms: [
      { file: `${DATA_PREFIX}/map-data/{date}.json`, unit: 'date', enumerate: ifPollen },
      { file: `${DATA_PREFIX}/map-data-local/{date}.json`, fixed: LOCAL, unit: 'date', enumerate: ifPollen },
    ],
  },
  {
    path: '/api/weather',
    handler: weather,
    forms: [
      { file: `${DATA_PREFIX}/weather/by-date/{date}.json`, unit: 'date', enumerate: ifWeather },
      { file: `${DATA_PREFIX}/weather/{city}/{date}.json`, unit: 'date', enumerate: citiesOn('weather'), perCityDay: true },
      { file: `${DATA_PREFIX}/weather/{city}.json`, unit: 'city', enumerate: theCity },
    ],
  },
  // Not enumerable: answered by their own functions at request time.
  { path: '/api/pollen-range', handler: pollenRange, forms: [] },
  { path: '/api/forecast', handler: forecast, forms: [] },
  { path: '/api/alerts', handler: alerts, forms: [] },
  { path: '/api/health', handler: health, forms: [] },
  // From the served city set and the ZIP table its function carries: both change only with a deploy.
  { path: '/api/nearest', handler: nearest, forms: [], untilDeploy: true },
  { path: '/openapi.json', handler: discovery.openapi, forms: [{ file: 'openapi.json', unit: 'once', enumerate: once }] },
  {
    path: '/.well-known/openapi.json',
    handler: discovery.openapi,
    forms: [{ file: '.well-known/openapi.json', unit: 'once', enumerate: once }],
  },
  { path: '/llms.txt', handler: discovery.llms, forms: [{ file: 'llms.txt', unit: 'once', enumerate: once }] },
];

const BY_PATH = new Map(ROUTES.map((r) => [r.path, r]));

/** The route at a path, if any. */
export function findRoute(path: string): Route | undefined {
  return BY_PATH.get(path);
}

/**
 * The units of a render of this store: once, each city served, each UTC day with data, newest
 * first; a day's city-day files are in the render from `cityDaysFrom` on.
 */
export function* unitsOf(store: StoreReader, cities: readonly string[], cityDaysFrom = -Infinity): Generator<Unit> {
  yield { kind: 'once' };
  for (const city of cities) yield { kind: 'city', city };
  const pollenDays = new Set(store.pollen.daysWithData());
  const weatherDays = new Set(store.weather.days());
  for (const day of [...new Set([...pollenDays, ...weatherDays])].sort((a, b) => b - a)) {
    yield { kind: 'date', day, pollen: pollenDays.has(day), weather: weatherDays.has(day), cityDays: day >= cityDaysFrom };
  }
}

/** Each route's forms that a unit of this kind renders, city-day forms included. */
export function* formsOf(routes: readonly Route[], kind: Unit['kind']): Generator<{ route: Route; form: StaticForm }> {
  for (const route of routes) for (const form of route.forms) if (form.unit === kind) yield { route, form };
}

/** The parameter names of a form, in the order they appear in its file. */
export function formParams(form: StaticForm): string[] {
  return [...form.file.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/** The file of a form for a parameter set. */
export function fileFor(form: StaticForm, params: Params): string {
  return form.file.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!);
}

const FILE_PATTERNS = ROUTES.flatMap((route) =>
  route.forms.map((form) => ({
    route,
    fixed: form.fixed ?? {},
    names: formParams(form),
    pattern: new RegExp(`^/${form.file.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '([^/]*)')}$`), // empty values too: 400, not 404
  })),
);

/**
 * The API request a publish-folder path stands for: `/data/pollen/austin/2025-04-01.json` is
 * `/api/pollen?city=austin&date=2025-04-01`, `/data/pollen-local/austin.json` is
 * `/api/pollen?city=austin&timezone=local`, `/data/fallback/pollen` is `/api/pollen` with the
 * query it came with. Path values and fixed values win over query values. Undefined for any other path.
 */
export function requestForFile(path: string, query: URLSearchParams): { path: string; query: URLSearchParams } | undefined {
  const fallback = new RegExp(`^/${DATA_PREFIX}/fallback(/.*)$`).exec(path);
  if (fallback) return { path: `/api${fallback[1]}`, query };
  for (const { route, fixed, names, pattern } of FILE_PATTERNS) {
    const m = pattern.exec(path);
    if (!m || !route.path.startsWith('/api/')) continue;
    const merged = new URLSearchParams(query);
    names.forEach((name, i) => {
      merged.set(name, safeDecode(m[i + 1]!));
    });
    for (const [name, value] of Object.entries(fixed)) merged.set(name, value);
    return { path: route.path, query: merged };
  }
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
