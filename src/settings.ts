/**
 * Every environment variable the service reads, with its default and its meaning: the one module
 * that reads the environment. `.env.example` and the table in docs/deploying.md are checked
 * against this list by a test. An empty value counts as unset (a CI variable left blank), and a
 * value is checked when it is first used, so a bad budget never stops a render that needs none.
 * It imports nothing of the project: every layer may read it.
 */
import { dirname, join } from 'node:path';

/** A variable with a value this service cannot use; the message names it. */
export class ConfigError extends Error {}

export const DEFAULT_DB_PATH = 'snapshots/pollen.db';
/** The local forecast cache's file beside its store, as the other files a store has (serve.db, site.json). */
export const FORECAST_CACHE_FILE = 'forecast-cache.db';
export const DEFAULT_SERVE_DAYS = 730;
export const DEFAULT_DEPLOY_MAX_FILES = 10_000;
export const DEFAULT_HEALTH_MAX_AGE_HOURS = 36;

/**
 * The most bytes of an answer before compression. Netlify streams at most 20 MB from a function
 * ("Streamed response payload: 20 MB", docs.netlify.com/build/functions/configuration), and a
 * client that accepts no compression must still get whole JSON: rows stop before this, the body
 * says `truncated: true` and `next` continues. The same rows whatever the encoding.
 */
export const MAX_BODY_BYTES = 20_000_000;
export const DEFAULT_FORECAST_RESERVE = 40;
/** The providers' APIs. */
export const AMBEE_BASE_URL = 'https://api.ambeedata.com';
export const OPENWEATHERMAP_URL = 'https://api.openweathermap.org';
export const OPEN_METEO_ARCHIVE_URL = 'https://archive-api.open-meteo.com';
export const OPEN_METEO_AIR_URL = 'https://air-quality-api.open-meteo.com';
export const ATMOSPORE_BASE_URL = 'https://pollenapi.com';
export const WEATHERAPI_BASE_URL = 'https://api.weatherapi.com';
/** Calls a day Atmospore's free key allows. */
export const ATMOSPORE_FREE_CALLS = 100;
/** Calls a day kept within WeatherAPI.com's plan. */
export const WEATHERAPI_DAILY_CALLS = 1000;
/** Hours of history Ambee's free plan serves; `AMBEE_HISTORY_HOURS` for a plan that serves more. */
export const DEFAULT_HISTORY_HOURS = 48;

/** The groups `.env.example` and the docs list the variables in. */
export type SettingGroup = 'store' | 'pollen' | 'weather' | 'http' | 'functions' | 'rebuild' | 'platform';

export interface Setting<T> {
  group: SettingGroup;
  /** The default as people read it; empty when there is none. */
  fallback: string;
  meaning: string;
  /** Set by Netlify itself, never by a deployer: not in `.env.example`. */
  platform?: true;
  /** Reads the value (undefined when unset or empty), throwing ConfigError when it cannot be used. */
  read: (text: string | undefined, name: string) => T;
}

const text = (text: string | undefined) => text;
const orDefault = (fallback: string) => (value: string | undefined) => value ?? fallback;
/** `true` or `false`; undefined when unset. */
const trueOrFalse = (value: string | undefined, name: string): boolean | undefined => {
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw new ConfigError(`${name} must be true or false (got ${JSON.stringify(value)})`);
  return value === 'true';
};
/** A whole number, at least `min`; `unit` words the message as `SERVE_DAYS must be a whole number of days of at least 1`. */
const whole =
  <F extends number | undefined>(fallback: F, min = 0, unit?: string) =>
  (value: string | undefined, name: string): number | F => {
    if (value === undefined) return fallback;
    if (unit !== undefined && (!/^\d+$/.test(value) || Number(value) < min))
      throw new ConfigError(`${name} must be a whole number of ${unit} of at least ${min} (got ${JSON.stringify(value)})`);
    if (!/^\d+$/.test(value)) throw new ConfigError(`${name} must be a whole number (got ${JSON.stringify(value)})`);
    if (Number(value) < min) throw new ConfigError(`${name} must be at least ${min} (got ${Number(value)})`);
    return Number(value);
  };

/** An instant in ISO 8601 with its zone (`2026-05-25T07:00:00Z`, `2026-05-25T02:00-05:00`), as milliseconds. */
const instant = (value: string | undefined, name: string): number | undefined => {
  if (value === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms))
    throw new ConfigError(
      `${name} must be an instant in ISO 8601 with its zone, such as 2026-05-25T07:00:00Z (got ${JSON.stringify(value)})`,
    );
  return ms;
};

const setting = <T>(s: Setting<T>): Setting<T> => s;

export const SETTINGS = {
  POLLEN_DB: setting({
    group: 'store',
    fallback: DEFAULT_DB_PATH,
    meaning: 'The SQLite store every command and function uses.',
    read: orDefault(DEFAULT_DB_PATH),
  }),
  CITIES_FILE: setting({
    group: 'store',
    fallback: '',
    meaning: 'Ingest: the city set, such as cities/us-top-200.json (without it: the set in the store, else the built-in 40).',
    read: text,
  }),
  SERVE_DAYS: setting({
    group: 'store',
    fallback: String(DEFAULT_SERVE_DAYS),
    meaning: "Render: the newest days the functions' copy of the store (serve.db) holds, from the first of the month the oldest falls in.",
    read: whole(DEFAULT_SERVE_DAYS, 1, 'days'),
  }),
  DEPLOY_MAX_FILES: setting({
    group: 'store',
    fallback: String(DEFAULT_DEPLOY_MAX_FILES),
    meaning: 'Render: the most files the publish folder holds; the newest city-days fill what the rest leaves.',
    read: whole(DEFAULT_DEPLOY_MAX_FILES, 1, 'files'),
  }),
  RENDER_CACHE: setting({
    group: 'store',
    fallback: '',
    meaning:
      "Render: the folder of the previous build's reusable output (the bulk files of unchanged months), restored and saved by the scheduled rebuild (default: render-cache beside the store).",
    read: text,
  }),
  RENDER_CACHE_KEY: setting({
    group: 'store',
    fallback: '',
    meaning:
      "Render: the secret (32 characters or more) that signs the render cache's state, so that a cache restored from elsewhere is only reused when this build wrote it; never printed. The scheduled rebuild takes it from the repository secret RENDER_CACHE_KEY and fails without it (default: a key made once beside the store, render-cache.key).",
    read: (value, name) => {
      if (value !== undefined && value.length < 32)
        throw new ConfigError(`${name} must be at least 32 characters (openssl rand -hex 32 makes one)`);
      return value;
    },
  }),
  AMBEE_API_KEY: setting({
    group: 'pollen',
    fallback: '',
    meaning: 'Required for the ambee pollen provider; sent as the x-api-key header, never printed.',
    read: text,
  }),
  AMBEE_BASE_URL: setting({ group: 'pollen', fallback: AMBEE_BASE_URL, meaning: "Ambee's API.", read: orDefault(AMBEE_BASE_URL) }),
  AMBEE_HISTORY_HOURS: setting({
    group: 'pollen',
    fallback: String(DEFAULT_HISTORY_HOURS),
    meaning: 'Hours of history your Ambee plan serves (48 on the free plan; `npm run doctor` confirms it).',
    read: whole(DEFAULT_HISTORY_HOURS, 1),
  }),
  AMBEE_DAILY_BUDGET: setting({
    group: 'pollen',
    fallback: '100',
    meaning: 'Ambee calls per UTC day, history and forecasts together.',
    read: whole(100),
  }),
  AMBEE_FORECAST_RESERVE: setting({
    group: 'pollen',
    fallback: String(DEFAULT_FORECAST_RESERVE),
    meaning: 'Of those, the calls only forecasts may use.',
    read: whole(DEFAULT_FORECAST_RESERVE),
  }),
  ATMOSPORE_API_KEY: setting({
    group: 'pollen',
    fallback: '',
    meaning: 'Required for the atmospore pollen provider (pollenapi.com); sent as the x-api-key header, never printed.',
    read: text,
  }),
  ATMOSPORE_BASE_URL: setting({
    group: 'pollen',
    fallback: ATMOSPORE_BASE_URL,
    meaning: "Atmospore's API.",
    read: orDefault(ATMOSPORE_BASE_URL),
  }),
  ATMOSPORE_DAILY_BUDGET: setting({
    group: 'pollen',
    fallback: String(ATMOSPORE_FREE_CALLS),
    meaning: 'Atmospore calls per UTC day, history and forecasts together (its free key allows 100).',
    read: whole(ATMOSPORE_FREE_CALLS),
  }),
  ATMOSPORE_FORECAST_RESERVE: setting({
    group: 'pollen',
    fallback: '20',
    meaning: 'Of those, the calls only forecasts may use (40 cities take the other 80).',
    read: whole(20),
  }),
  WEATHERAPI_API_KEY: setting({
    group: 'pollen',
    fallback: '',
    meaning: 'Required for the weatherapi pollen provider (WeatherAPI.com); sent as the key parameter, never printed.',
    read: text,
  }),
  WEATHERAPI_BASE_URL: setting({
    group: 'pollen',
    fallback: WEATHERAPI_BASE_URL,
    meaning: "WeatherAPI.com's API.",
    read: orDefault(WEATHERAPI_BASE_URL),
  }),
  WEATHERAPI_DAILY_BUDGET: setting({
    group: 'pollen',
    fallback: String(WEATHERAPI_DAILY_CALLS),
    meaning: 'WeatherAPI.com calls per UTC day, history and forecasts together.',
    read: whole(WEATHERAPI_DAILY_CALLS),
  }),
  WEATHERAPI_FORECAST_RESERVE: setting({
    group: 'pollen',
    fallback: '200',
    meaning: 'Of those, the calls only forecasts may use.',
    read: whole(200),
  }),
  WEATHERAPI_ENTERPRISE: setting({
    group: 'pollen',
    fallback: '',
    meaning:
      "`true` when the WeatherAPI.com key is on its Enterprise plan, whose history carries pollen from 2010; otherwise its history is the place's today, from the forecast.",
    read: trueOrFalse,
  }),
  POLLEN_PROVIDERS: setting({
    group: 'pollen',
    fallback: '',
    meaning:
      'Ingest and forecasts: the pollen providers in order of preference, comma-separated (`atmospore,ambee`). Each city-day comes from the first that answers it whole (default: the one `--provider` names).',
    read: text,
  }),
  ALLOW_SAMPLE_DEPLOY: setting({
    group: 'pollen',
    fallback: '',
    meaning:
      "`true` lets `npm run build` on Netlify's own build ingest the sample provider: a demonstration site of simulated data. Without it that build refuses the sample.",
    read: trueOrFalse,
  }),
  POLLEN_PROVIDER: setting({
    group: 'pollen',
    fallback: '',
    meaning:
      "`doctor`'s pollen provider. Forecasts always come from the one that filled the store: set here, it must name that one, or every forecast refresh is refused.",
    read: text,
  }),
  WEATHER_PROVIDER: setting({
    group: 'weather',
    fallback: '',
    meaning:
      'Ingest: sample, open-meteo or openweathermap (default: sample with sample pollen, else openweathermap when OPENWEATHER_API_KEY is set, else open-meteo).',
    read: text,
  }),
  OPENWEATHER_API_KEY: setting({
    group: 'weather',
    fallback: '',
    meaning: 'OpenWeatherMap One Call 3.0 and Air Pollution; sent as appid, never printed.',
    read: text,
  }),
  OPENWEATHER_BASE_URL: setting({
    group: 'weather',
    fallback: OPENWEATHERMAP_URL,
    meaning: "OpenWeatherMap's API.",
    read: orDefault(OPENWEATHERMAP_URL),
  }),
  OPENWEATHER_DAILY_BUDGET: setting({
    group: 'weather',
    fallback: '1000',
    meaning: 'OpenWeatherMap calls per UTC day.',
    read: whole(1000),
  }),
  OPEN_METEO_ARCHIVE_URL: setting({
    group: 'weather',
    fallback: OPEN_METEO_ARCHIVE_URL,
    meaning: "Open-Meteo's historical weather API.",
    read: orDefault(OPEN_METEO_ARCHIVE_URL),
  }),
  OPEN_METEO_AIR_QUALITY_URL: setting({
    group: 'weather',
    fallback: OPEN_METEO_AIR_URL,
    meaning: "Open-Meteo's air-quality API.",
    read: orDefault(OPEN_METEO_AIR_URL),
  }),
  OPEN_METEO_DAILY_BUDGET: setting({ group: 'weather', fallback: '10000', meaning: 'Open-Meteo calls per UTC day.', read: whole(10_000) }),
  HTTP_TIMEOUT_MS: setting({ group: 'http', fallback: '15000', meaning: 'Each provider request, per attempt.', read: whole(15_000) }),
  HTTP_RETRIES: setting({ group: 'http', fallback: '3', meaning: 'Further attempts after a timeout, a reset or a 5xx.', read: whole(3) }),
  HTTP_CONCURRENCY: setting({
    group: 'http',
    fallback: '4',
    meaning: 'Requests in flight per provider (at least 1).',
    read: (value, name) => Math.max(1, whole(4)(value, name)),
  }),
  FORECAST_CACHE_DB: setting({
    group: 'functions',
    fallback: '',
    meaning: `The forecast's local cache and call ledger, the store's own (default: ${FORECAST_CACHE_FILE} beside the store; deployed, Netlify Blobs instead).`,
    read: text,
  }),
  FORECAST_DAILY_BUDGET: setting({
    group: 'functions',
    fallback: '',
    meaning: 'Upstream forecast calls per UTC day (default: AMBEE_FORECAST_RESERVE for ambee, no limit for sample).',
    read: whole(undefined),
  }),
  HEALTH_MAX_AGE_HOURS: setting({
    group: 'functions',
    fallback: String(DEFAULT_HEALTH_MAX_AGE_HOURS),
    meaning:
      "/api/health answers ok (200) while the newest stored hour is at most this old, else stale (503); the sample's data is simulated (503) whatever its age.",
    read: whole(DEFAULT_HEALTH_MAX_AGE_HOURS),
  }),
  POLLEN_NOW: setting({
    group: 'functions',
    fallback: '',
    meaning:
      'The instant the server, the functions and the ingest take as now (ISO 8601 with its zone, such as 2026-05-25T07:00:00Z), standing still: to read the answers as they would be at another date or hour, and for tests. Without it, the system clock.',
    read: instant,
  }),
  NETLIFY_AUTH_TOKEN: setting({
    group: 'rebuild',
    fallback: '',
    meaning: 'The scheduled rebuild: deploys, and reads and writes the store snapshot in Netlify Blobs.',
    read: text,
  }),
  NETLIFY_SITE_ID: setting({ group: 'rebuild', fallback: '', meaning: 'The scheduled rebuild: the site it deploys to.', read: text }),
  NETLIFY: setting({
    group: 'platform',
    fallback: '',
    meaning: "Set by Netlify in its build environment (`true`): `npm run build` is Netlify's own build.",
    platform: true,
    read: (value) => (value === undefined ? undefined : value === 'true'),
  }),
  NETLIFY_BLOBS_CONTEXT: setting({
    group: 'platform',
    fallback: '',
    meaning: "Set by Netlify's functions runtime: the forecast caches in Netlify Blobs when it is present.",
    platform: true,
    read: text,
  }),
} as const;

export type SettingName = keyof typeof SETTINGS;
export type Settings = { readonly [K in SettingName]: ReturnType<(typeof SETTINGS)[K]['read']> };

const NAMES = Object.keys(SETTINGS) as SettingName[];
const built = new WeakMap<object, { raw: string; settings: Settings }>();

/**
 * The local forecast cache of the store at `db`: `$FORECAST_CACHE_DB`, else the file beside the
 * store. A cache belongs to its store: what its function fetched is kept in that store only, and
 * a command on another store (`ingest --db`) never opens the cache of the checkout's default one.
 */
export const forecastCachePath = (db: string, s: Settings): string => s.FORECAST_CACHE_DB ?? join(dirname(db), FORECAST_CACHE_FILE);

/**
 * The settings of an environment, each value read when first used. Built once per process and
 * environment: again only when a variable changed (a command, or a test, that sets one).
 */
export function settingsOf(env: NodeJS.ProcessEnv = process.env): Settings {
  const raw = NAMES.map((name) => env[name] ?? '').join('\u0000');
  const known = built.get(env);
  if (known?.raw === raw) return known.settings;
  const settings = {} as Settings;
  for (const name of NAMES) {
    let read: { value: unknown } | undefined;
    Object.defineProperty(settings, name, {
      enumerable: true,
      get: () => (read ??= { value: SETTINGS[name].read(env[name] === '' ? undefined : env[name], name) }).value,
    });
  }
  built.set(env, { raw, settings });
  return settings;
}

/** The clock of an environment: `POLLEN_NOW`, standing still, where it is set; else the system's. */
export function clockOf(env: NodeJS.ProcessEnv = process.env): () => number {
  const fixed = settingsOf(env).POLLEN_NOW;
  return fixed === undefined ? Date.now : () => fixed;
}
