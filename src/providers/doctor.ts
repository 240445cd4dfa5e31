/**
 * `doctor`: checks the configured providers (every pollen provider of the chain, and the weather
 * provider) against the real thing with at most three requests each (a recent history window, one just beyond the configured window, the forecast), counted in
 * the ledger as ingest. This machine reaches no provider, so this is what a deployer runs once.
 */
import type { City } from '../domain/cities.js';
import { DAY_MS, dayString, HOUR_MS, isoHour } from '../domain/dates.js';
import { settingsOf } from '../settings.js';
import type { Store } from '../store/store.js';
import { StoreLedger } from './call-budget.js';
import {
  type DailyPollenProvider,
  isDaily,
  type PollenBatch,
  type PollenProvider,
  ProviderError,
  type WeatherProvider,
} from './provider.js';
import { budgetFor, budgetWarnings, createProviders, type ProviderRequest } from './registry.js';
import { SAMPLE_ID } from './sample/index.js';
import { entryOf, POLLEN_PROVIDERS } from './table.js';

export interface ProviderCheck {
  provider: string;
  data: 'pollen' | 'weather';
  /** The provider answered (any HTTP status). */
  reachable: boolean;
  authorized: boolean;
  /** Recent history could be read: ingest can run with this provider. */
  usable: boolean;
  /** What was seen, as label and text, in print order. */
  facts: Array<[string, string]>;
}

export interface DoctorOptions extends Omit<ProviderRequest, 'store' | 'purpose'> {
  store: Store;
  city: City;
  /** Cities the deployment serves: the budget check compares their daily calls with the budget. */
  cities?: number;
  now: () => number;
}

/** Checks the pollen provider and the weather provider of a configuration. */
export async function doctor(options: DoctorOptions): Promise<ProviderCheck[]> {
  const { chain, weather } = createProviders({ ...options, purpose: 'ingest' });
  const left = (id: string) => new StoreLedger(options.store, id, budgetFor(id, options.env ?? process.env), 'ingest', options.now).left();
  const checks: ProviderCheck[] = [];
  // Every provider of the chain, in its order: a deployer sees each one's answer before a run relies on it.
  for (const pollen of chain)
    checks.push(
      isDaily(pollen)
        ? await checkDailyPollen(pollen, options.city, options.now())
        : await checkPollen(pollen, options.city, options.now()),
    );
  if (!(chain.every((p) => p.id === SAMPLE_ID) && weather.id === SAMPLE_ID))
    checks.push(await checkWeather(weather, options.city, options.now()));
  const warnings = options.cities === undefined ? [] : budgetWarnings(options.cities, { chain, weather }, options.env ?? process.env);
  for (const c of checks) {
    if (c.provider === SAMPLE_ID) continue;
    const entry = c.data === 'pollen' ? entryOf('pollen', c.provider) : entryOf('weather', c.provider);
    if (!c.authorized && entry?.key) c.facts.push(['key', `refused: set ${entry.key} to a key ${c.provider} accepts (never printed here)`]);
    if (entry?.freeKey) c.facts.push(['free key', entry.freeKey]);
    const calls = left(c.provider);
    c.facts.push(['budget', calls === null ? 'no daily limit configured' : `${calls} calls left today for ingest (after this check)`]);
    for (const w of warnings.filter((w) => w.includes(` ${c.provider} calls`))) c.facts.push(['warning', w]);
  }
  return checks;
}

/** How a request went, in words, and what it says of the provider. */
function outcome(error: unknown): { reachable: boolean; authorized: boolean; text: string } {
  if (!(error instanceof ProviderError)) throw error;
  return {
    reachable: error.failure !== 'unavailable',
    authorized: error.failure !== 'unauthorized',
    text: `${error.failure}: ${error.message}`,
  };
}

const span = (from: number, to: number) => `${isoHour(from)} to ${isoHour(to)}`;

async function checkPollen(provider: PollenProvider, city: City, now: number): Promise<ProviderCheck> {
  const check: ProviderCheck = { provider: provider.id, data: 'pollen', reachable: true, authorized: true, usable: true, facts: [] };
  if (provider.id === SAMPLE_ID) {
    check.facts.push(['data', 'simulated by the bundled sample provider: nothing to check']);
    return check;
  }
  const c = provider.coverage(now);
  const recent = { from: c.newestHour - 3, to: c.newestHour };
  try {
    const batch = await provider.pollenHistory(city, recent);
    check.facts.push(['history', `${batch.hours.length} hours for ${city.slug}, ${span(recent.from, recent.to)}`]);
    describeBatch(batch, check);
  } catch (error) {
    const o = outcome(error);
    Object.assign(check, { reachable: o.reachable, authorized: o.authorized, usable: (error as ProviderError).failure === 'not_covered' });
    check.facts.push(['history', o.text]);
  }
  if (!check.reachable || !check.authorized) return check;

  if (c.oldestHour === null) check.facts.push(['window', 'none declared: history reaches back further than ingest asks']);
  else {
    const beyond = { from: c.oldestHour - 2, to: c.oldestHour - 1 };
    const hours = String(c.newestHour - c.oldestHour + 1); // through the current hour
    try {
      const batch = await provider.pollenHistory(city, beyond);
      check.facts.push([
        'window',
        batch.hours.length > 0
          ? `wider than the ${hours} hours configured: ${span(beyond.from, beyond.to)} answered ${batch.hours.length} hours (raise AMBEE_HISTORY_HOURS to use them)`
          : `not confirmed: ${span(beyond.from, beyond.to)} answered no hours, and no refusal`,
      ]);
    } catch (error) {
      const failure = error instanceof ProviderError ? error.failure : undefined;
      check.facts.push([
        'window',
        failure === 'outside_window'
          ? `confirmed: ${hours} hours (an hour before it is refused as outside the window)`
          : `not confirmed: ${outcome(error).text}`,
      ]);
    }
  }

  try {
    const batch = await provider.pollenForecast(city, now);
    const fromNow = batch.hours.filter((h) => h.time >= Math.floor(now / HOUR_MS) * HOUR_MS).length;
    check.facts.push(['forecast', `${batch.hours.length} hours (${fromNow} from the current hour)`]);
  } catch (error) {
    check.facts.push(['forecast', outcome(error).text]);
  }
  return check;
}

/**
 * A provider that gives days: its value of the place's today, a day before the window it declares
 * (when it declares one), and its forecast to its horizon: at most three requests.
 */
async function checkDailyPollen(provider: DailyPollenProvider, city: City, now: number): Promise<ProviderCheck> {
  const check: ProviderCheck = { provider: provider.id, data: 'pollen', reachable: true, authorized: true, usable: true, facts: [] };
  const { oldestDay, newestDay } = provider.dayCoverage(now);
  try {
    const batch = await provider.pollenDays(city, { from: newestDay, to: newestDay });
    check.facts.push(['history', `${batch.days.length} day (${dayString(newestDay)}) for ${city.slug}: daily values, no hours`]);
    if (batch.itemFields) check.facts.push(['item fields', batch.itemFields.join(', ') || 'none']);
    const plants = new Set<string>();
    for (const d of batch.days)
      if (d.species && typeof d.species === 'object')
        for (const [group, names] of Object.entries(d.species as Record<string, unknown>))
          for (const name of names && typeof names === 'object' ? Object.keys(names) : []) plants.add(`${group}.${name}`);
    check.facts.push(['species', plants.size > 0 ? [...plants].join(', ') : 'none sent']);
    check.facts.push(['its dates', provider.dayMeans === 'local' ? "the place's own calendar days" : 'UTC days']);
  } catch (error) {
    const o = outcome(error);
    Object.assign(check, { reachable: o.reachable, authorized: o.authorized, usable: (error as ProviderError).failure === 'not_covered' });
    check.facts.push(['history', o.text]);
  }
  if (!check.reachable || !check.authorized) return check;
  if (oldestDay === null) check.facts.push(['window', 'none declared: history reaches back further than ingest asks']);
  else {
    const before = oldestDay - 1;
    try {
      const batch = await provider.pollenDays(city, { from: before, to: before });
      check.facts.push([
        'window',
        batch.days.length > 0
          ? `wider than declared: ${dayString(before)} answered a value (ingest asks from ${dayString(oldestDay)})`
          : `${dayString(oldestDay)} to ${dayString(newestDay)}: ${dayString(before)} answered no value`,
      ]);
    } catch (error) {
      check.facts.push([
        'window',
        `${dayString(oldestDay)} to ${dayString(newestDay)}: ${dayString(before)} answered ${outcome(error).text}`,
      ]);
    }
  }
  try {
    const batch = await provider.pollenForecastDays(city, now, provider.forecastDays);
    check.facts.push(['forecast', `${batch.days.length} days (of ${provider.forecastDays} asked)`]);
  } catch (error) {
    check.facts.push(['forecast', outcome(error).text]);
  }
  return check;
}

/** Field names and species categories of a batch. */
function describeBatch(batch: PollenBatch, check: ProviderCheck): void {
  if (batch.itemFields) check.facts.push(['item fields', batch.itemFields.join(', ') || 'none']);
  const categories = new Set<string>();
  for (const h of batch.hours) if (h.species && typeof h.species === 'object') for (const k of Object.keys(h.species)) categories.add(k);
  check.facts.push(['species', categories.size > 0 ? [...categories].join(', ') : 'none sent']);
  if (batch.timezone) check.facts.push(['time zone', batch.timezone]);
}

async function checkWeather(provider: WeatherProvider, city: City, now: number): Promise<ProviderCheck> {
  const check: ProviderCheck = { provider: provider.id, data: 'weather', reachable: true, authorized: true, usable: true, facts: [] };
  if (provider.id === SAMPLE_ID) {
    check.facts.push(['data', 'simulated by the bundled sample provider: nothing to check']);
    return check;
  }
  const newest = Math.floor(provider.coverage(now).newestHour / 24) - 1;
  try {
    const [day] = await provider.weatherHistory(city, { from: newest, to: newest });
    const fields = Object.keys(day?.values ?? {}).filter((k) => (day!.values as Record<string, unknown>)[k] !== undefined);
    check.facts.push([
      'history',
      day
        ? `${dayString(newest)} for ${city.slug}: ${fields.join(', ')}`
        : `${dayString(newest)} for ${city.slug}: no values yet (the archive may lag)`,
    ]);
  } catch (error) {
    const o = outcome(error);
    Object.assign(check, { reachable: o.reachable, authorized: o.authorized, usable: (error as ProviderError).failure === 'not_covered' });
    check.facts.push(['history', o.text]);
  }
  check.facts.push(['window', `served up to ${dayString(newest)} (newest day asked)`]);
  return check;
}

/** Every pollen provider this service speaks to, with whether its key is set and what it gives: no request made. */
export function providerList(env: NodeJS.ProcessEnv): string[] {
  const s = settingsOf(env);
  return POLLEN_PROVIDERS.map((e) => {
    const key = e.key === undefined ? 'no key needed' : s[e.key] ? `${e.key} set` : `${e.key} not set`;
    return `${e.id.padEnd(11)} ${key}; ${e.gives}; forecast ${e.horizon}`;
  });
}

/** The checks as a table, one block per provider, after the list of every provider; never a key. */
export function formatDoctor(checks: readonly ProviderCheck[], now: number, providers: readonly string[] = []): string {
  const lines = [`doctor: ${new Date(Math.floor(now / DAY_MS) * DAY_MS).toISOString().slice(0, 10)}`];
  if (providers.length > 0)
    lines.push('', 'pollen providers (POLLEN_PROVIDERS chains them, in order of preference):', ...providers.map((p) => `  ${p}`));
  for (const c of checks) {
    lines.push('', `${c.provider} (${c.data}): ${c.usable ? 'usable' : 'NOT USABLE'}`);
    lines.push(`  ${'reachable'.padEnd(12)} ${c.reachable ? 'yes' : 'no'}`, `  ${'authorized'.padEnd(12)} ${c.authorized ? 'yes' : 'no'}`);
    for (const [label, text] of c.facts) lines.push(`  ${label.padEnd(12)} ${text}`);
  }
  return `${lines.join('\n')}\n`;
}
