/**
 * Providers by id, configured only from the environment (`.env.example` lists every variable).
 * A missing key is a ConfigError naming the variable; keys go to the clients and nowhere else.
 */
import type { Dispatcher } from 'undici';
import type { CallPurpose, Store } from '../store/store.js';
import { AmbeeProvider, AMBEE_ID, DEFAULT_HISTORY_HOURS } from './ambee.js';
import { StoreLedger, type Budget } from './budget.js';
import { HttpClient, type HttpPolicy } from './http.js';
import { OpenMeteoProvider, OPEN_METEO_ID } from './open-meteo.js';
import { OpenWeatherMapProvider, OPENWEATHERMAP_ID } from './openweathermap.js';
import type { PollenProvider, WeatherProvider } from './provider.js';
import { SampleProvider, SAMPLE_ID } from './sample/index.js';

/** Ids accepted by `--provider` (pollen) and `--weather`. */
export const PROVIDER_IDS: readonly string[] = [SAMPLE_ID, AMBEE_ID];
export const WEATHER_IDS: readonly string[] = [SAMPLE_ID, OPEN_METEO_ID, OPENWEATHERMAP_ID];

export class ConfigError extends Error {}

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

/** Default daily budgets: the free tiers' limits. */
export const DEFAULT_BUDGETS: Record<string, number> = { [AMBEE_ID]: 100, [OPENWEATHERMAP_ID]: 1000, [OPEN_METEO_ID]: 10_000 };
export const DEFAULT_FORECAST_RESERVE = 40;

/**
 * Upstream forecast calls a provider may make per UTC day: `FORECAST_DAILY_BUDGET` when set,
 * else the part of the provider's budget that ingest leaves to forecasts (Ambee's reserve), else
 * none. The sample provider has no budget.
 */
export function forecastBudget(provider: string, env: NodeJS.ProcessEnv): number | null {
  if (env.FORECAST_DAILY_BUDGET) return number(env, 'FORECAST_DAILY_BUDGET', 0);
  return provider === AMBEE_ID ? number(env, 'AMBEE_FORECAST_RESERVE', DEFAULT_FORECAST_RESERVE) : null;
}

/** The weather provider id a request resolves to. */
export function weatherIdFor(pollen: string, weather: string | undefined, env: NodeJS.ProcessEnv): string {
  return (
    weather ?? env.WEATHER_PROVIDER ?? (pollen === SAMPLE_ID ? SAMPLE_ID : env.OPENWEATHER_API_KEY ? OPENWEATHERMAP_ID : OPEN_METEO_ID)
  );
}

/** Checks ids and keys without building anything, so a CLI can refuse before it writes. */
export function checkProviders(pollen: string, weather: string | undefined, env: NodeJS.ProcessEnv = process.env): void {
  if (!PROVIDER_IDS.includes(pollen))
    throw new ConfigError(`--provider must be one of: ${PROVIDER_IDS.join(', ')} (got ${JSON.stringify(pollen)})`);
  const w = weatherIdFor(pollen, weather, env);
  if (!WEATHER_IDS.includes(w))
    throw new ConfigError(`the weather provider must be one of: ${WEATHER_IDS.join(', ')} (got ${JSON.stringify(w)})`);
  if (pollen === AMBEE_ID) {
    key(env, 'AMBEE_API_KEY', 'the ambee pollen provider');
    historyHours(env);
  }
  if (w === OPENWEATHERMAP_ID) key(env, 'OPENWEATHER_API_KEY', 'the openweathermap weather provider');
  policyFrom(env);
}

/** The providers for a request. */
export function createProviders(req: ProviderRequest): ProviderPair {
  const env = req.env ?? process.env;
  checkProviders(req.pollen, req.weather, env);
  const policy = policyFrom(env);
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
          apiKey: env.AMBEE_API_KEY!,
          http: http(AMBEE_ID, env.AMBEE_API_KEY),
          baseUrl: env.AMBEE_BASE_URL,
          historyHours: historyHours(env),
        })
      : sample;
  const w = weatherIdFor(req.pollen, req.weather, env);
  const weather =
    w === OPENWEATHERMAP_ID
      ? new OpenWeatherMapProvider({
          apiKey: env.OPENWEATHER_API_KEY!,
          http: http(OPENWEATHERMAP_ID, env.OPENWEATHER_API_KEY),
          baseUrl: env.OPENWEATHER_BASE_URL,
        })
      : w === OPEN_METEO_ID
        ? new OpenMeteoProvider({
            http: http(OPEN_METEO_ID),
            archiveUrl: env.OPEN_METEO_ARCHIVE_URL,
            airQualityUrl: env.OPEN_METEO_AIR_QUALITY_URL,
          })
        : sample;
  return { pollen, weather };
}

/** Calls a daily rebuild makes per city to each provider (one history request of the recent days, weather and air quality apart). */
export const DAILY_CALLS_PER_CITY: Readonly<Record<string, number>> = {
  [AMBEE_ID]: 1,
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

/** A provider's daily budget from the environment (`<PROVIDER>_DAILY_BUDGET`), with Ambee's forecast reserve. */
export function budgetFor(provider: string, env: NodeJS.ProcessEnv): Budget {
  const name = `${envName(provider)}_DAILY_BUDGET`;
  const fallback = DEFAULT_BUDGETS[provider];
  return {
    daily: fallback === undefined && !env[name] ? null : number(env, name, fallback ?? 0),
    forecastReserve: provider === AMBEE_ID ? number(env, 'AMBEE_FORECAST_RESERVE', DEFAULT_FORECAST_RESERVE) : 0,
  };
}

const envName = (provider: string) =>
  ({ [AMBEE_ID]: 'AMBEE', [OPENWEATHERMAP_ID]: 'OPENWEATHER', [OPEN_METEO_ID]: 'OPEN_METEO' })[provider] ?? provider.toUpperCase();

function key(env: NodeJS.ProcessEnv, name: string, forWhat: string): string {
  const value = env[name];
  if (!value || value.trim() === '') throw new ConfigError(`${name} is not set: ${forWhat} needs an API key (see .env.example)`);
  return value;
}

/** A whole-number variable: its default when unset or empty, a ConfigError when not a whole number. */
export function number(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text)) throw new ConfigError(`${name} must be a whole number (got ${JSON.stringify(text)})`);
  return Number(text);
}

/** Hours of history the deployer's Ambee plan serves (48 on the free plan). */
function historyHours(env: NodeJS.ProcessEnv): number {
  const hours = number(env, 'AMBEE_HISTORY_HOURS', DEFAULT_HISTORY_HOURS);
  if (hours < 1) throw new ConfigError(`AMBEE_HISTORY_HOURS must be at least 1 (got ${hours})`);
  return hours;
}

function policyFrom(env: NodeJS.ProcessEnv): Partial<HttpPolicy> {
  return {
    timeoutMs: number(env, 'HTTP_TIMEOUT_MS', 15_000),
    retries: number(env, 'HTTP_RETRIES', 3),
    concurrency: Math.max(1, number(env, 'HTTP_CONCURRENCY', 4)),
  };
}
