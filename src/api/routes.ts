/**
 * The one route list. Each route names its handler and the static forms of its answers: which
 * query parameters a form has, the file it is rendered to, and the parameter values to render.
 * The renderer loops over the forms, `_redirects` is generated from them, and the fallback
 * function maps a file path back to its request with them.
 */
import { CITIES } from '../domain/cities.js';
import { dayString } from '../domain/dates.js';
import type { Store } from '../store/store.js';
import { availableDates } from './available-dates.js';
import { cities } from './cities.js';
import { discovery } from './discovery.js';
import { forecast } from './forecast.js';
import type { Handler } from './handler.js';
import { health } from './health.js';
import { latestDate } from './latest-date.js';
import { mapData } from './map-data.js';
import { pollen } from './pollen.js';
import { pollenRange } from './pollen-range.js';
import { weather } from './weather.js';

export type Params = Record<string, string>;

export interface StaticForm {
  /** The file under the publish folder, with `{name}` for each parameter. */
  file: string;
  /** Every parameter set to render in this form. */
  enumerate: (store: Store) => Iterable<Params>;
}

export interface Route {
  path: string;
  handler: Handler;
  /** In matching order: a file name without parameters before a `{city}` one it would also match. */
  forms: readonly StaticForm[];
}

/** Where rendered API answers live under the publish folder; the fallback function serves its misses. */
export const DATA_PREFIX = 'data';

const none = (): Params[] => [{}];
/**
 * Rendered only when the store has data: an empty store's latest date is the fallback's 404.
 * (The parameterless forms of routes that take parameters are not rendered at all: see
 * netlify.toml, they reach the fallback function whatever their query.)
 */
const ifData = (store: Store): Params[] => (store.latestDay() === null ? [] : [{}]);
const everyCity = (): Params[] => CITIES.map((c) => ({ city: c.slug }));
const pollenDates = (store: Store): string[] => store.daysWithData().map(dayString);
const weatherDates = (store: Store): string[] => store.weatherDays().map(dayString);
/** Each city-day with data; other city-days answer empty rows from the fallback function. */
const cityDates = (kind: 'pollen' | 'weather') => (store: Store) =>
  [...store.daysByCity(kind)].flatMap(([city, days]) => days.map((day) => ({ city, date: dayString(day) })));

export const ROUTES: readonly Route[] = [
  { path: '/api/cities', handler: cities, forms: [{ file: `${DATA_PREFIX}/cities.json`, enumerate: none }] },
  { path: '/api/available-dates', handler: availableDates, forms: [{ file: `${DATA_PREFIX}/available-dates.json`, enumerate: none }] },
  { path: '/api/latest-date', handler: latestDate, forms: [{ file: `${DATA_PREFIX}/latest-date.json`, enumerate: ifData }] },
  {
    path: '/api/pollen',
    handler: pollen,
    forms: [
      { file: `${DATA_PREFIX}/pollen/by-date/{date}.json`, enumerate: (s) => pollenDates(s).map((date) => ({ date })) },
      { file: `${DATA_PREFIX}/pollen/{city}/{date}.json`, enumerate: cityDates('pollen') },
      { file: `${DATA_PREFIX}/pollen/{city}.json`, enumerate: everyCity },
    ],
  },
  {
    path: '/api/map-data',
    handler: mapData,
    forms: [
      { file: `${DATA_PREFIX}/map-data/{date}.json`, enumerate: (s) => pollenDates(s).map((date) => ({ date })) },
    ],
  },
  {
    path: '/api/weather',
    handler: weather,
    forms: [
      { file: `${DATA_PREFIX}/weather/by-date/{date}.json`, enumerate: (s) => weatherDates(s).map((date) => ({ date })) },
      { file: `${DATA_PREFIX}/weather/{city}/{date}.json`, enumerate: cityDates('weather') },
      { file: `${DATA_PREFIX}/weather/{city}.json`, enumerate: everyCity },
    ],
  },
  // Not enumerable: answered by their own functions at request time.
  { path: '/api/pollen-range', handler: pollenRange, forms: [] },
  { path: '/api/forecast', handler: forecast, forms: [] },
  { path: '/api/health', handler: health, forms: [] },
  { path: '/openapi.json', handler: discovery.openapi, forms: [{ file: 'openapi.json', enumerate: none }] },
  { path: '/.well-known/openapi.json', handler: discovery.openapi, forms: [{ file: '.well-known/openapi.json', enumerate: none }] },
  { path: '/llms.txt', handler: discovery.llms, forms: [{ file: 'llms.txt', enumerate: none }] },
];

const BY_PATH = new Map(ROUTES.map((r) => [r.path, r]));

/** The route at a path, if any. */
export function findRoute(path: string): Route | undefined {
  return BY_PATH.get(path);
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
    names: formParams(form),
    pattern: new RegExp(`^/${form.file.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '([^/]*)')}$`), // empty values too: 400, not 404
  })),
);

/**
 * The API request a publish-folder path stands for: `/data/pollen/austin/2025-04-01.json` is
 * `/api/pollen?city=austin&date=2025-04-01`, `/data/fallback/pollen` is `/api/pollen` with the
 * query it came with. Path values win over query values. Undefined for any other path.
 */
export function requestForFile(path: string, query: URLSearchParams): { path: string; query: URLSearchParams } | undefined {
  const fallback = new RegExp(`^/${DATA_PREFIX}/fallback(/.*)$`).exec(path);
  if (fallback) return { path: `/api${fallback[1]}`, query };
  for (const { route, names, pattern } of FILE_PATTERNS) {
    const m = pattern.exec(path);
    if (!m || !route.path.startsWith('/api/')) continue;
    const merged = new URLSearchParams(query);
    names.forEach((name, i) => merged.set(name, safeDecode(m[i + 1]!)));
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
