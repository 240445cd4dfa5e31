/** `ingest` as the CLI runs it: open the store, ingest with progress, report the outcome. */

import { existsSync } from 'node:fs';
import type { Dispatcher } from 'undici';
import { type City, DEFAULT_CITIES } from '../domain/cities.js';
import { dayString } from '../domain/dates.js';
import { DAY_STATUSES } from '../domain/day-status.js';
import { budgetWarnings, ConfigError, chainIds, createProviders, type ProviderPair } from '../providers/registry.js';
import { SAMPLE_ID } from '../providers/sample/index.js';
import { clockOf, settingsOf } from '../settings.js';
import { CityConflictError, openStore, type Store } from '../store/store.js';
import { type IngestArgs, UsageError } from './args.js';
import { type IngestSummary, ingest } from './ingest.js';
import { formatKept, keepWithFetches } from './keep-forecasts.js';
import { progressReporter } from './progress.js';

export interface RunOptions {
  /** Leave a store that already has data alone (`npm start`). */
  onlyIfEmpty?: boolean;
  /** Print `{counts, failed, stopped, providers}` as JSON instead of the human summary. */
  json?: boolean;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  dispatcher?: Dispatcher;
  /** Refuse to ingest the sample provider, with this message (sampleDeployRefusal). */
  refuseSample?: string;
}

/**
 * The city set of a run: the cities file's, else the one already in the store, else the built-in
 * 40; `--cities` picks within it. Unknown slugs are a UsageError before a new store is created.
 */
function citiesOf(args: IngestArgs, stored: City[] | undefined): { set: City[]; cities: City[] } {
  const set = args.citySet ?? stored ?? [...DEFAULT_CITIES.list];
  if (!args.only) return { set, cities: set };
  const bySlug = new Map(set.map((c) => [c.slug, c]));
  const unknown = args.only.find((s) => !bySlug.has(s));
  if (unknown !== undefined)
    throw new UsageError(
      `--cities: unsupported city ${JSON.stringify(unknown)}; the set has ${set.length}: ${set.map((c) => c.slug).join(', ')}`,
    );
  return { set, cities: args.only.map((s) => bySlug.get(s)!) };
}

/** The run's providers: the pollen provider asked for, else the store's own (`own`), else the sample. */
function providersFor(pollen: string, args: IngestArgs, own: string | null, store: Store, options: RunOptions): ProviderPair {
  try {
    return createProviders({
      pollen,
      weather: args.weather,
      store,
      purpose: 'ingest',
      env: options.env,
      now: options.now,
      dispatcher: options.dispatcher,
    });
  } catch (error) {
    if (error instanceof ConfigError && args.provider === undefined && own !== null)
      throw new UsageError(
        `${error.message} (the store ${args.db} holds ${own}'s pollen, which ingest asks for when --provider is not given)`,
      );
    throw error;
  }
}

/**
 * A store keeps its provider: another pollen provider's days, or simulated weather in a store of
 * real weather, are only written when the run asks for it by name. Then each day
 * keeps its own provider's label, and answers say which provider each value came from.
 */
function refuseAnotherProvider(store: Store, args: IngestArgs, providers: ProviderPair, own: string | null): void {
  if (args.replaceProviderDays) return;
  const db = args.db;
  if (own !== null && !providers.chain.some((p) => p.id === own))
    throw new UsageError(
      `the store ${db} holds ${own}'s pollen: --provider ${providers.pollen.id} would write ${providers.pollen.id}'s days into it. Leave out --provider to ingest ${own}, name another --db, or add --replace-provider-days to write ${providers.pollen.id}'s days over this run's days (each day keeps its own provider's label)`,
    );
  const weather = store.weather.latestSource();
  if (providers.weather?.id === SAMPLE_ID && weather !== null && weather !== SAMPLE_ID)
    throw new UsageError(
      `the store ${db} holds ${weather}'s weather: --weather sample would write simulated weather into it. Name a real weather provider with --weather, name another --db, or add --replace-provider-days to write the sample's days over this run's days`,
    );
}

/** Runs an ingest; undefined when `onlyIfEmpty` found data and did nothing. */
export async function runIngest(
  args: IngestArgs,
  log: NodeJS.WritableStream & { isTTY?: boolean },
  out: NodeJS.WritableStream,
  options: RunOptions = {},
): Promise<IngestSummary | undefined> {
  options = { ...options, now: options.now ?? clockOf(options.env) };
  // A store that does not exist yet is created only once the arguments are known to be good.
  if (!existsSync(args.db)) citiesOf(args, undefined);
  const store = openStore(args.db);
  try {
    const own = store.pollen.latestSource();
    const pollen = args.provider ?? settingsOf(options.env).POLLEN_PROVIDERS ?? own ?? SAMPLE_ID;
    if (options.refuseSample !== undefined && chainIds(pollen).includes(SAMPLE_ID)) throw new UsageError(options.refuseSample);
    const providers = providersFor(pollen, args, own, store, options);
    const keep = async (cities: readonly City[], take: ReadonlySet<string> = new Set(providers.chain.map((p) => p.id))) => {
      const kept = await keepWithFetches(
        store,
        providers.chain,
        cities,
        options.now?.() ?? Date.now(),
        args.db,
        options.env ?? process.env,
        take,
      );
      log.write(`ingest: ${formatKept(kept)}\n`);
    };
    if (options.onlyIfEmpty && store.pollen.latestDay() !== null) {
      out.write(`store ${args.db} already has data through ${dayString(store.pollen.latestDay()!)}; not ingesting\n`);
      // A store of this provider made before forecasts were kept has its own made now (the sample's past, at once).
      if (providers.chain.some((p) => p.id === store.pollen.latestSource())) await keep(store.cities.set().list);
      return undefined;
    }
    refuseAnotherProvider(store, args, providers, own);
    const stored = store.cities.stored();
    const { set, cities } = citiesOf(args, stored);
    if (args.citySet || !stored) {
      try {
        const change = store.replaceCities(set);
        if (stored && (change.added.length > 0 || change.removed.length > 0)) {
          log.write(
            `ingest: the city set now has ${set.length} cities: ${change.added.length} added, ${change.removed.length} no longer served (their data is kept)\n`,
          );
        }
      } catch (error) {
        if (error instanceof CityConflictError) throw new UsageError(error.message);
        throw error;
      }
    }
    for (const warning of budgetWarnings(set.length, providers, options.env ?? process.env)) log.write(`ingest: warning: ${warning}\n`);
    log.write(
      `ingest: ${providers.chain.map((p) => p.id).join(' then ')} pollen, ${providers.weather.id} weather, ${cities.length} cities, ${dayString(args.span.from)}..${dayString(args.span.to)} into ${args.db}\n`,
    );
    const summary = await ingest({
      store,
      pollen: providers.chain,
      weather: providers.weather,
      cities,
      span: args.span,
      refresh: args.refresh,
      replaceOtherProviders: args.replaceProviderDays,
      now: options.now,
      onProgress: progressReporter(log, 'ingest'),
    });
    // A provider that refused this run (its quota) or whose budget it spent is not asked again for forecasts.
    await keep(cities, new Set(providers.chain.map((p) => p.id).filter((id) => !(id in summary.stopped))));
    const compacted = store.compactIfLoose();
    if (compacted) log.write(`ingest: compacted the store from ${mb(compacted.before)} to ${mb(compacted.after)}\n`);
    out.write(options.json ? `${JSON.stringify(jsonSummary(summary))}\n` : formatSummary(summary));
    return summary;
  } finally {
    store.close();
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The machine-readable outcome `--json` prints. */
export function jsonSummary(s: IngestSummary): Pick<IngestSummary, 'counts' | 'failed' | 'stopped' | 'providers'> {
  return { counts: s.counts, failed: s.failed, stopped: s.stopped, providers: s.providers };
}

/** The closing lines of an ingest: every status, what was written, and every city-day that failed. */
export function formatSummary(s: IngestSummary): string {
  const total = DAY_STATUSES.reduce((n, k) => n + s.counts[k], 0);
  const rate = s.seconds > 0 ? Math.round(s.hourlyRows / s.seconds) : 0;
  const lines = [
    `${total} city-days (pollen and weather counted apart): ${DAY_STATUSES.map((k) => `${s.counts[k]} ${k.replace('_', ' ')}`).join(', ')}`,
    `wrote ${s.written} city-days (${s.hourlyRows} hourly rows, ${s.dailyValues} daily values, ${s.weatherRows} weather rows) in ${s.seconds.toFixed(1)} s, ${rate} hourly rows/s, with ${s.calls} provider requests`,
  ];
  // Each pollen provider of the chain: what it gave, and what it cost.
  for (const [provider, p] of Object.entries(s.providers))
    lines.push(`${provider}: gave ${p.cityDays} pollen city-days for ${p.calls} requests`);
  for (const [provider, why] of Object.entries(s.stopped))
    lines.push(`stopped calling ${provider}: ${why}; what is left is deferred to the next run`);
  for (const f of s.failed) lines.push(`failed: ${f.city} ${f.date} ${f.data}: ${f.failure}: ${f.message}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Why `npm run build` must not ingest the sample here, if it must not: on Netlify's own build its
 * invented values would be deployed as the site's data on every push. Netlify sets `NETLIFY=true`
 * in its build environment ("Build environment variables", read-only variables,
 * docs.netlify.com/build/configure-builds/environment-variables); the scheduled rebuild, which
 * deploys with `--no-build`, never runs the build there.
 */
export function sampleDeployRefusal(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const s = settingsOf(env);
  let allowed: boolean | undefined;
  try {
    allowed = s.ALLOW_SAMPLE_DEPLOY;
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  if (s.NETLIFY !== true || allowed === true) return undefined;
  return (
    "this is Netlify's own build (NETLIFY=true), and it would deploy the sample provider's simulated data as the site's data. " +
    'Real data comes from the scheduled rebuild (.github/workflows/rebuild.yml), which needs AMBEE_API_KEY: stop these builds ' +
    '(Site configuration > Build & deploy > Continuous deployment > Build settings > Stop builds). ' +
    "For a demonstration site of simulated data, set ALLOW_SAMPLE_DEPLOY=true in the site's build environment."
  );
}

/** The exit code of an ingest: 1 when a city-day failed (deferred and outside the window are not failures). */
export const ingestExitCode = (s: IngestSummary | undefined): number => (s && s.failed.length > 0 ? 1 : 0);
