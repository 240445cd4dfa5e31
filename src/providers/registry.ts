/**
 * Providers by id, configured only from the environment (src/settings.ts lists every variable).
 * A missing key is a ConfigError naming the variable; keys go to the clients and nowhere else.
 */
import type { Dispatcher } from 'undici';
import { ConfigError, type Settings, settingsOf } from '../settings.js';
import type { CallPurpose, Store } from '../store/store.js';
import { type Budget, StoreLedger } from './call-budget.js';
import { HttpClient, type HttpPolicy } from './http-client.js';
import { OPEN_METEO_ID } from './open-meteo.js';
import { OPENWEATHERMAP_ID } from './openweathermap.js';
import type { AnyPollenProvider, WeatherProvider } from './provider.js';
import { SAMPLE_ID } from './sample/index.js';
import { entriesOf, entryOf, POLLEN_PROVIDERS, type ProviderEntry, WEATHER_PROVIDERS } from './table.js';

/** Ids accepted by `--provider` (pollen) and `--weather`. */
export const PROVIDER_IDS: readonly string[] = POLLEN_PROVIDERS.map((e) => e.id);
export const WEATHER_IDS: readonly string[] = WEATHER_PROVIDERS.map((e) => e.id);

export { ConfigError } from '../settings.js';

export interface ProviderPair {
  /** The first pollen provider of the chain. */
  pollen: AnyPollenProvider;
  /** Every pollen provider, in order of preference: a city-day another leaves unanswered goes to the next. */
  chain: AnyPollenProvider[];
  weather: WeatherProvider;
}

export interface ProviderRequest {
  /** A pollen provider id, or a chain of them comma-separated (`atmospore,ambee`). */
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

/** The ids of a chain as given (`atmospore, ambee`): each once, in order. */
export const chainIds = (pollen: string): string[] => [...new Set(pollen.split(',').map((id) => id.trim()))];

/**
 * The pollen chain a command uses: `--provider` when given, else `POLLEN_PROVIDERS`, else
 * `POLLEN_PROVIDER`, else ambee when its key is set, else the sample.
 */
export function pollenChainFor(given: string | undefined, env: NodeJS.ProcessEnv): string {
  const s = settingsOf(env);
  return given ?? s.POLLEN_PROVIDERS ?? s.POLLEN_PROVIDER ?? (s.AMBEE_API_KEY ? 'ambee' : SAMPLE_ID);
}

/**
 * Upstream forecast calls a provider may make per UTC day: `FORECAST_DAILY_BUDGET` when set,
 * else the part of the provider's budget that ingest leaves to forecasts (its reserve), else
 * none. The sample provider has no budget.
 */
export function forecastBudget(provider: string, env: NodeJS.ProcessEnv): number | null {
  const s = settingsOf(env);
  const reserve = entryOf('pollen', provider)?.forecastReserve;
  return s.FORECAST_DAILY_BUDGET ?? (reserve ? s[reserve] : null);
}

/** The weather provider id a request resolves to. */
export function weatherIdFor(pollen: string, weather: string | undefined, env: NodeJS.ProcessEnv): string {
  const s = settingsOf(env);
  return (
    weather ??
    s.WEATHER_PROVIDER ??
    (chainIds(pollen).every((id) => id === SAMPLE_ID) ? SAMPLE_ID : s.OPENWEATHER_API_KEY ? OPENWEATHERMAP_ID : OPEN_METEO_ID)
  );
}

/** Checks ids and keys without building anything, so a CLI can refuse before it writes. */
export function checkProviders(pollen: string, weather: string | undefined, env: NodeJS.ProcessEnv = process.env): void {
  const s = settingsOf(env);
  for (const id of chainIds(pollen)) {
    const entry = entryOf('pollen', id);
    if (!entry)
      throw new ConfigError(
        `--provider must be one of: ${PROVIDER_IDS.join(', ')}, or several comma-separated (got ${JSON.stringify(id)})`,
      );
    checkEntry(s, entry);
  }
  const w = weatherIdFor(pollen, weather, env);
  const entry = entryOf('weather', w);
  if (!entry) throw new ConfigError(`the weather provider must be one of: ${WEATHER_IDS.join(', ')} (got ${JSON.stringify(w)})`);
  checkEntry(s, entry);
  policyFrom(s);
}

/** A provider's key is set, and its settings read. */
function checkEntry(s: Settings, entry: ProviderEntry): void {
  if (entry.key) {
    const value = s[entry.key];
    if (!value || value.trim() === '')
      throw new ConfigError(`${entry.key} is not set: the ${entry.id} ${entry.kind} provider needs an API key (see .env.example)`);
  }
  for (const setting of [entry.budget, entry.forecastReserve, ...(entry.settings ?? [])]) if (setting) void s[setting];
}

/** The providers for a request. */
export function createProviders(req: ProviderRequest): ProviderPair {
  const env = req.env ?? process.env;
  checkProviders(req.pollen, req.weather, env);
  const settings = settingsOf(env);
  const policy = policyFrom(settings);
  const context = (provider: string) => ({
    settings,
    http: (secret?: string) =>
      new HttpClient({
        provider,
        policy,
        dispatcher: req.dispatcher,
        sleep: req.sleep,
        secrets: secret ? [secret] : [],
        ledger: req.store ? new StoreLedger(req.store, provider, budgetFor(provider, env), req.purpose ?? 'ingest', req.now) : undefined,
      }),
  });
  const chain = chainIds(req.pollen).map((id) => entryOf('pollen', id)!.make(context(id)));
  const w = weatherIdFor(req.pollen, req.weather, env);
  return { pollen: chain[0]!, chain, weather: entryOf('weather', w)!.make(context(w)) };
}

/** Calls a daily rebuild makes per city to a provider (table.ts); 1 for one not listed. */
export const dailyCallsPerCity = (id: string): number => entriesOf(id)[0]?.callsPerCityDay ?? 1;

/**
 * What a daily rebuild of `cities` would cost each provider against what ingest may spend (the
 * budget less the forecast reserve): a warning for each provider it would not fit.
 */
export function budgetWarnings(cities: number, providers: Pick<ProviderPair, 'chain' | 'weather'>, env: NodeJS.ProcessEnv): string[] {
  const ids = [...new Set([...providers.chain.map((p) => p.id), providers.weather.id])];
  return ids.flatMap((id) => {
    const { daily, forecastReserve } = budgetFor(id, env);
    const perCity = dailyCallsPerCity(id);
    const needed = cities * perCity;
    if (daily === null || needed <= daily - forecastReserve) return [];
    const fit = Math.floor((daily - forecastReserve) / perCity);
    return [
      `${cities} cities need ${needed} ${id} calls a day, but its budget leaves ingest ${daily - forecastReserve} (${daily} a day less ${forecastReserve} kept for forecasts): about ${fit} cities fit, the rest will be deferred`,
    ];
  });
}

/** A provider's daily budget from its setting (`<PROVIDER>_DAILY_BUDGET`), with its forecast reserve; none for the sample. */
export function budgetFor(provider: string, env: NodeJS.ProcessEnv): Budget {
  const s = settingsOf(env);
  const entry = entriesOf(provider).find((e) => e.budget);
  return {
    daily: entry?.budget ? s[entry.budget] : null,
    forecastReserve: entry?.forecastReserve ? s[entry.forecastReserve] : 0,
  };
}

function policyFrom(s: Settings): Partial<HttpPolicy> {
  return { timeoutMs: s.HTTP_TIMEOUT_MS, retries: s.HTTP_RETRIES, concurrency: s.HTTP_CONCURRENCY };
}
