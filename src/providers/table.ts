/**
 * Every provider this service speaks to, one entry each: what it gives, how far it reaches, what
 * a daily rebuild costs it, which settings configure it, its terms, and how its client is made.
 * Adding a provider is one entry here and one client; nothing else branches on an id.
 */
import type { Settings } from '../settings.js';
import { AMBEE_ID, AmbeeProvider } from './ambee.js';
import { ATMOSPORE_ID, AtmosporeProvider } from './atmospore.js';
import type { HttpClient } from './http-client.js';
import { OPEN_METEO_ID, OpenMeteoProvider } from './open-meteo.js';
import { OPENWEATHERMAP_ID, OpenWeatherMapProvider } from './openweathermap.js';
import type { AnyPollenProvider, WeatherProvider } from './provider.js';
import { SAMPLE_ID, SampleProvider } from './sample/index.js';
import { WEATHERAPI_ID, WeatherApiProvider } from './weatherapi.js';

type SettingOf<T> = { [K in keyof Settings]: Settings[K] extends T ? K : never }[keyof Settings];
/** A setting holding text (a key). */
export type KeySetting = SettingOf<string | undefined>;
/** A setting holding a count (a budget). */
export type CountSetting = SettingOf<number>;

/** How a client is made: the settings, and an HTTP client that counts its calls and keeps `secret` out of every message. */
export interface MakeContext {
  settings: Settings;
  http: (secret?: string) => HttpClient;
}

interface EntryBase {
  id: string;
  /** What it gives, in a few words (doctor, docs). */
  gives: string;
  /** How far its forecast reaches, in words; none for weather. */
  horizon: string;
  /** Provider requests a daily rebuild makes per city (history, and for pollen the forecast the build keeps). */
  callsPerCityDay: number;
  /** The setting of its key, when it needs one. */
  key?: KeySetting;
  /** The setting of its daily call budget, when it has one. */
  budget?: CountSetting;
  /** The setting of the part of that budget only forecasts may use. */
  forecastReserve?: CountSetting;
  /** Its other settings: read (and so checked) before anything is written. */
  settings?: ReadonlyArray<keyof Settings>;
  /** Whether a deployment may store its values and serve them publicly (docs/deploying.md, "Pollen providers"). */
  terms: string;
  /** What a key one gets without talking to sales covers, when there is one. */
  freeKey?: string;
}

export interface PollenEntry extends EntryBase {
  kind: 'pollen';
  make: (ctx: MakeContext) => AnyPollenProvider;
}

export interface WeatherEntry extends EntryBase {
  kind: 'weather';
  make: (ctx: MakeContext) => WeatherProvider;
}

export type ProviderEntry = PollenEntry | WeatherEntry;

const sample = new SampleProvider();

export const POLLEN_PROVIDERS: readonly PollenEntry[] = [
  {
    id: SAMPLE_ID,
    kind: 'pollen',
    gives: 'simulated hourly pollen by species, for any day (no key, no network)',
    horizon: '48 hours',
    callsPerCityDay: 0,
    terms: 'invented values: every answer marks them simulated',
    make: () => sample,
  },
  {
    id: AMBEE_ID,
    kind: 'pollen',
    gives:
      'hourly grains/m³ by category and species; history the past 48 hours (AMBEE_HISTORY_HOURS for a plan with more); sold to enterprises only',
    horizon: '48 hours',
    callsPerCityDay: 2,
    key: 'AMBEE_API_KEY',
    budget: 'AMBEE_DAILY_BUDGET',
    forecastReserve: 'AMBEE_FORECAST_RESERVE',
    settings: ['AMBEE_BASE_URL', 'AMBEE_HISTORY_HOURS'],
    terms: 'enterprise contract: ask Ambee',
    make: ({ settings: s, http }) =>
      new AmbeeProvider({
        apiKey: s.AMBEE_API_KEY!,
        http: http(s.AMBEE_API_KEY),
        baseUrl: s.AMBEE_BASE_URL,
        historyHours: s.AMBEE_HISTORY_HOURS,
      }),
  },
  {
    id: ATMOSPORE_ID,
    kind: 'pollen',
    gives: "daily grains/m³ by species (25 taxa, a model on a 28 km grid), its own risk words; the place's today",
    horizon: '14 days',
    callsPerCityDay: 2,
    key: 'ATMOSPORE_API_KEY',
    budget: 'ATMOSPORE_DAILY_BUDGET',
    forecastReserve: 'ATMOSPORE_FORECAST_RESERVE',
    settings: ['ATMOSPORE_BASE_URL'],
    terms: 'atmospore.com/terms-of-service: read it before publishing',
    freeKey:
      "free, no card: 100 calls a day (3,000 a month), which is 2 calls a city-day for up to 40 cities with the forecast function's share; its forecast up to 14 days",
    make: ({ settings: s, http }) =>
      new AtmosporeProvider({ apiKey: s.ATMOSPORE_API_KEY!, http: http(s.ATMOSPORE_API_KEY), baseUrl: s.ATMOSPORE_BASE_URL }),
  },
  {
    id: WEATHERAPI_ID,
    kind: 'pollen',
    gives: 'hourly grains/m³ of 7 plants from its forecast (Pro+ plans); history on Enterprise only',
    horizon: '48 hours',
    callsPerCityDay: 2,
    key: 'WEATHERAPI_API_KEY',
    budget: 'WEATHERAPI_DAILY_BUDGET',
    forecastReserve: 'WEATHERAPI_FORECAST_RESERVE',
    settings: ['WEATHERAPI_BASE_URL', 'WEATHERAPI_ENTERPRISE'],
    terms: 'weatherapi.com/terms.aspx: read it before publishing',
    freeKey:
      'the free plan (100,000 calls a month) has no pollen: Pro+ and above carry it (code 2009 otherwise); pollen history on Enterprise only',
    make: ({ settings: s, http }) =>
      new WeatherApiProvider({
        apiKey: s.WEATHERAPI_API_KEY!,
        http: http(s.WEATHERAPI_API_KEY),
        baseUrl: s.WEATHERAPI_BASE_URL,
        enterprise: s.WEATHERAPI_ENTERPRISE === true,
      }),
  },
];

export const WEATHER_PROVIDERS: readonly WeatherEntry[] = [
  {
    id: SAMPLE_ID,
    kind: 'weather',
    gives: 'simulated daily weather and air quality',
    horizon: '',
    callsPerCityDay: 0,
    terms: 'invented values',
    make: () => sample,
  },
  {
    id: OPEN_METEO_ID,
    kind: 'weather',
    gives: 'daily weather (ERA5 archive) and hourly air quality, no key',
    horizon: '',
    callsPerCityDay: 2,
    budget: 'OPEN_METEO_DAILY_BUDGET',
    terms: 'CC BY 4.0, free for non-commercial use',
    make: ({ settings: s, http }) =>
      new OpenMeteoProvider({ http: http(), archiveUrl: s.OPEN_METEO_ARCHIVE_URL, airQualityUrl: s.OPEN_METEO_AIR_QUALITY_URL }),
  },
  {
    id: OPENWEATHERMAP_ID,
    kind: 'weather',
    gives: 'daily weather (One Call 3.0 day summary) and air pollution',
    horizon: '',
    callsPerCityDay: 2,
    key: 'OPENWEATHER_API_KEY',
    budget: 'OPENWEATHER_DAILY_BUDGET',
    terms: 'ODbL / CC BY-SA 4.0 by plan',
    make: ({ settings: s, http }) =>
      new OpenWeatherMapProvider({ apiKey: s.OPENWEATHER_API_KEY!, http: http(s.OPENWEATHER_API_KEY), baseUrl: s.OPENWEATHER_BASE_URL }),
  },
];

/** The entry of a provider id of a kind, if there is one. */
export function entryOf(kind: 'pollen', id: string): PollenEntry | undefined;
export function entryOf(kind: 'weather', id: string): WeatherEntry | undefined;
export function entryOf(kind: 'pollen' | 'weather', id: string): ProviderEntry | undefined {
  return (kind === 'pollen' ? POLLEN_PROVIDERS : WEATHER_PROVIDERS).find((e) => e.id === id);
}

/** Every entry of an id, pollen and weather (the sample is both). */
export const entriesOf = (id: string): ProviderEntry[] => [...POLLEN_PROVIDERS, ...WEATHER_PROVIDERS].filter((e) => e.id === id);
