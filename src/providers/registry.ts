/**
 * Providers by id, configured only from the environment (src/settings.ts lists every variable).
 * A missing key is a ConfigError naming the variable; keys go to the clients and nowhere else.
 */
import type { Dispatcher } from 'undici';
import { ConfigError, type Settings, settingsOf } from '../settings.js';
import type { CallPurpose, Store } from '../store/store.js';
import { AmbeeProvider, AMBEE_ID } from './ambee.js';
import { StoreLedger, type Budget } from './call-budget.js';
import { HttpClient, type HttpPolicy } from './http-policy.js';
import { OpenMeteoProvider, OPEN_METEO_ID } from './open-meteo.js';
import { OpenWeatherMapProvider, OPENWEATHERMAP_ID } from './openweathermap.js';
import type { PollenProvider, WeatherProvider } from './provider.js';
import { SampleProvider, SAMPLE_ID } from './sample/index.js';

/** Ids accepted by `--provider` (pollen) and `--weather`. */
export const PROVIDER_IDS: readonly string[] = [SAMPLE_ID, AMBEE_ID];
export const WEATHER_IDS: readonly string[] = [SAMPLE_ID, OPEN_METEO_ID, OPENWEATHERMAP_ID];

export { ConfigError } from '../settings.js';

export interface ProviderPair {
  pollen: PollenProvider;
  weather: WeatherProvider;
}

export interface ProviderRequest {
  pollen: string;
  /** Defaults: `sample` with the sample pollen provider; else OpenWeatherMap when its key is set, else Open-Meteo. */
  weather?: string;
  env?: NodeJS.ProcessEnv;
  /** Where calls are counted against daily budgets; without one nothing is counted here. */
  store?: Store;
  purpose?: CallPurpose;
  dispatcher?: Dispatcher;
  sleep?: (ms: number) => Promise<void>;
  /** The clock the ledger counts UTC days by. */
  now?: () => number;
}

/**
 * Upstream forecast calls a provider may make per UTC day: `FORECAST_DAILY_BUDGET` when set,
 * else the part of the provider's budget that ingest leaves to forecasts (Ambee's reserve), else
 * none. The sample provider has no budget.
 */
export function forecastBudget(provider: string, env: NodeJS.ProcessEnv): number | null {
  const s = settingsOf(env);
  return s.FORECAST_DAILY_BUDGET ?? (provider === AMBEE_ID ? s.AMBEE_FORECAST_RESERVE : null);
}

/** The weather provider id a request resolves to. */
export function weatherIdFor(pollen: string, weather: string | undefined, env: NodeJS.ProcessEnv): string {
  const s = settingsOf(env);
  return weather ?? s.WEATHER_PROVIDER ?? (pollen === SAMPLE_ID ? SAMPLE_ID : s.OPENWEATHER_API_KEY ? OPENWEATHERMAP_ID : OPEN_METEO_ID);
}

/** Checks ids and keys without building anything, so a CLI can refuse before it writes. */
export function checkProviders(pollen: string, weather: string | undefined, env: NodeJS.ProcessEnv = process.env): void {
  if (!PROVIDER_IDS.includes(pollen))
    throw new ConfigError(`--provider must be one of: ${PROVIDER_IDS.join(', ')} (got ${JSON.stringify(pollen)})`);
  const w = weatherIdFor(pollen, weather, env);
  if (!WEATHER_IDS.includes(w))
    throw new ConfigError(`the weather provider must be one of: ${WEATHER_IDS.join(', ')} (got ${JSON.stringify(w)})`);
  const s = settingsOf(env);
  if (pollen === AMBEE_ID) {
    key(s, 'AMBEE_API_KEY', 'the ambee pollen provider');
    void s.AMBEE_HISTORY_HOURS;
  }
  if (w === OPENWEATHERMAP_ID) key(s, 'OPENWEATHER_API_KEY', 'the openweathermap weather provider');
  policyFrom(s);
}

/** The providers for a request. */
export function createProviders(req: ProviderRequest): ProviderPair {
  const env = req.env ?? process.env;
  checkProviders(req.pollen, req.weather, env);
  const s = settingsOf(env);
  const policy = policyFrom(s);
  const http = (provider: string, secret?: string) =>
    new HttpClient({
      provider,
      policy,
      dispatcher: req.dispatcher,
      sleep: req.sleep,
      secrets: secret ? [secret] : [],
      ledger: req.store ? new StoreLedger(req.store, provider, budgetFor(provider, env), req.purpose ?? 'ingest', req.now) : undefined,
    });
  const sample = new SampleProvider();
  const pollen =
    req.pollen === AMBEE_ID
      ? new AmbeeProvider({
          apiKey: s.AMBEE_API_KEY!,
          http: http(AMBEE_ID, s.AMBEE_API_KEY),
          baseUrl: s.AMBEE_BASE_URL,
          historyHours: s.AMBEE_HISTORY_HOURS,
        })
      : sample;
  const w = weatherIdFor(req.pollen, req.weather, env);
  const weather =
    w === OPENWEATHERMAP_ID
      ? new OpenWeatherMapProvider({
          apiKey: s.OPENWEATHER_API_KEY!,
          http: http(OPENWEATHERMAP_ID, s.OPENWEATHER_API_KEY),
          baseUrl: s.OPENWEATHER_BASE_URL,
        })
      : w === OPEN_METEO_ID
        ? new OpenMeteoProvider({
            http: http(OPEN_METEO_ID),
            archiveUrl: s.OPEN_METEO_ARCHIVE_URL,
            airQualityUrl: s.OPEN_METEO_AIR_QUALITY_URL,
          })
        : sample;
  return { pollen, weather };
}

/**
 * Calls a daily rebuild makes per city to each provider: one history request of the recent days
 * (weather and air quality apart), and for a pollen provider the forecast the build keeps, unless
 * the forecast function fetched one in the last 6 hours (ingest/keep-forecasts.ts).
 */
export const DAILY_CALLS_PER_CITY: Readonly<Record<string, number>> = {
  [AMBEE_ID]: 2,
  [OPEN_METEO_ID]: 2,
  [OPENWEATHERMAP_ID]: 2,
  [SAMPLE_ID]: 0,
};

/**
 * What a daily rebuild of `cities` would cost each provider against what ingest may spend (the
 * budget less the forecast reserve): a warning for each provider it would not fit.
 */
export function budgetWarnings(cities: number, providers: ProviderPair, env: NodeJS.ProcessEnv): string[] {
  const ids = [...new Set([providers.pollen.id, providers.weather.id])];
  return ids.flatMap((id) => {
    const { daily, forecastReserve } = budgetFor(id, env);
    const needed = cities * (DAILY_CALLS_PER_CITY[id] ?? 1);
    if (daily === null || needed <= daily - forecastReserve) return [];
    const fit = Math.floor((daily - forecastReserve) / (DAILY_CALLS_PER_CITY[id] ?? 1));
    return [
      `${cities} cities need ${needed} ${id} calls a day, but its budget leaves ingest ${daily - forecastReserve} (${daily} a day less ${forecastReserve} kept for forecasts): about ${fit} cities fit, the rest will be deferred`,
    ];
  });
}

/** A provider's daily budget from the environment (`<PROVIDER>_DAILY_BUDGET`), with Ambee's forecast reserve; none for the sample. */
export function budgetFor(provider: string, env: NodeJS.ProcessEnv): Budget {
  const s = settingsOf(env);
  const daily = {
    [AMBEE_ID]: s.AMBEE_DAILY_BUDGET,
    [OPENWEATHERMAP_ID]: s.OPENWEATHER_DAILY_BUDGET,
    [OPEN_METEO_ID]: s.OPEN_METEO_DAILY_BUDGET,
  }[provider];
  return { daily: daily ?? null, forecastReserve: provider === AMBEE_ID ? s.AMBEE_FORECAST_RESERVE : 0 };
}

function key(s: Settings, name: 'AMBEE_API_KEY' | 'OPENWEATHER_API_KEY', forWhat: string): string {
  const value = s[name];
  if (!value || value.trim() === '') throw new ConfigError(`${name} is not set: ${forWhat} needs an API key (see .env.example)`);
  return value;
}

function policyFrom(s: Settings): Partial<HttpPolicy> {
  return { timeoutMs: s.HTTP_TIMEOUT_MS, retries: s.HTTP_RETRIES, concurrency: s.HTTP_CONCURRENCY };
}
