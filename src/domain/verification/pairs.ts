/**
 * A category's paired days (docs/data.md, "Forecast skill"): for each observed UTC day, what was
 * observed, and what every forecast kept for it said, each as it was issued: each provider's
 * forecast at each lead it reached (the last issued on its issue day), whichever provider wrote
 * the observed day, persistence and
 * climatology as the issue day kept them, and the ranked probability scores of the outlook issued
 * each of the 7 days before, with what was served and whether the season was under way on its
 * issue day. The forecast-pairs bulk files are these rows; every score is made from them.
 *
 * Nothing here is made again from the observed days but the observed side itself: a day the
 * provider replaces changes what it is compared with, never what was forecast.
 */

import { type SeasonSeries, seasonYearsOf } from '../seasons/year.js';
import { type Graded, LEVEL_INDEX } from '../species/risk.js';
import type { KeptClimatology, KeptOutlook, Served } from './kept-outlooks.js';
import { MIN_LEADS } from './leads.js';
import { OUTLOOK_LEADS } from './outlook.js';
import { rpsOfCounts } from './outlook-skill.js';
import type { KeptDay } from './target-days.js';

export { PROVIDER_LEADS } from './leads.js';

/** One provider's kept forecasts, the last issued on its issue day at each lead it reaches (latestAtLead), by day. */
export interface ProviderForecasts {
  provider: string;
  /** By lead, up to the furthest its kept forecasts reach. */
  leads: ReadonlyArray<ReadonlyMap<number, KeptDay>>;
}

/** What a city's pairs are made from, all kept as issued but the observed days. */
export interface KeptInputs {
  /** The observed days of each category, as verification reads them (verification-days.ts, observedSeries). */
  observed: (category: Graded) => SeasonSeries;
  /** The provider of each observed day, as the store records it. */
  source: (day: number) => string | undefined;
  /** The kept outlooks, by issue day. */
  outlooks: ReadonlyMap<number, KeptOutlook>;
  /** The kept climatologies, by target day. */
  climatologies: ReadonlyMap<number, KeptClimatology>;
  /** Each provider's kept forecasts, in the order their first forecast was issued. */
  forecasts: readonly ProviderForecasts[];
}

/** One provider's forecast on each row, by lead up to the furthest its kept forecasts reach. */
export interface ProviderColumns {
  provider: string;
  value: Float64Array[];
  level: Int8Array[];
  /** When it was issued, ms. */
  issued: Float64Array[];
}

/** The codes `served` holds: -1 nothing served (made again, or no outlook), 0 the outlook, 1 climatology. */
export const SERVED_CODE: Record<Served, number> = { outlook: 0, climatology: 1 };

/**
 * One category's pairs as columns, a row per observed day in day order: values are daily means
 * to a thousandth (NaN: none), levels indexes into RISK_LABELS (-1: none).
 */
export interface PairColumns {
  category: Graded;
  n: number;
  day: Int32Array;
  /** The provider of each observed day: its forecasts are that provider's. */
  provider: string[];
  seasonYear: Int32Array;
  observedValue: Float64Array;
  observedLevel: Uint8Array;
  /** Climatology's median day, and the ranked probability score of its probabilities. */
  climatologyValue: Float64Array;
  climatologyLevel: Int8Array;
  climatologyRps: Float64Array;
  /** Leads scored: the outlook's, or as far as a provider's kept forecast reaches when further. */
  leads: number;
  /** Leads some provider's kept forecast reaches, at least MIN_LEADS. */
  reach: number;
  /** By lead below `reach`: the observed day's provider's forecast (and when it was issued, ms), and persistence as its issue day kept it. */
  forecastValue: Float64Array[];
  forecastLevel: Int8Array[];
  forecastIssued: Float64Array[];
  persistenceValue: Float64Array[];
  persistenceLevel: Int8Array[];
  /** Each provider's forecast, whoever wrote the observed day: compared side by side. */
  providers: ProviderColumns[];
  /** By lead below OUTLOOK_LEADS: the outlook's ranked probability score and what was served (SERVED_CODE). */
  outlookRps: Float64Array[];
  served: Int8Array[];
  /** By lead below `leads`: whether the issue day was in season (-1: no outlook kept that day). */
  inSeason: Int8Array[];
}

const leads = <T>(count: number, make: () => T): T[] => Array.from({ length: count }, make);

/** The columns of a category's pairs on `days`, every one empty (NaN, or -1 for a level). */
function emptyColumns(inputs: KeptInputs, category: Graded, days: readonly number[]): PairColumns {
  const n = days.length;
  const nan = () => new Float64Array(n).fill(Number.NaN);
  const none = () => new Int8Array(n).fill(-1);
  const reach = Math.max(MIN_LEADS, ...inputs.forecasts.map((p) => p.leads.length));
  const scored = Math.max(OUTLOOK_LEADS, reach);
  return {
    category,
    n,
    day: Int32Array.from(days),
    provider: days.map((day) => inputs.source(day) ?? ''),
    seasonYear: Int32Array.from(seasonYearsOf(category, days)),
    observedValue: new Float64Array(n),
    observedLevel: new Uint8Array(n),
    climatologyValue: nan(),
    climatologyLevel: none(),
    climatologyRps: nan(),
    leads: scored,
    reach,
    forecastValue: leads(reach, nan),
    forecastLevel: leads(reach, none),
    forecastIssued: leads(reach, nan),
    persistenceValue: leads(reach, nan),
    persistenceLevel: leads(reach, none),
    providers: inputs.forecasts.map((p) => ({
      provider: p.provider,
      value: leads(p.leads.length, nan),
      level: leads(p.leads.length, none),
      issued: leads(p.leads.length, nan),
    })),
    outlookRps: leads(OUTLOOK_LEADS, nan),
    served: leads(OUTLOOK_LEADS, none),
    inSeason: leads(scored, none),
  };
}

/** Row `i` (`day`): what each provider's kept forecasts said of it at each lead, and the observed day's provider's as the forecast. */
function pairForecasts(c: PairColumns, inputs: KeptInputs, i: number, day: number): void {
  const own = c.provider[i];
  for (const [p, forecasts] of inputs.forecasts.entries()) {
    const columns = c.providers[p]!;
    for (const [lead, byDay] of forecasts.leads.entries()) {
      const f = byDay.get(day);
      const said = f?.levels[c.category];
      if (!f || !said) continue;
      columns.value[lead]![i] = said.value;
      columns.level[lead]![i] = LEVEL_INDEX[said.level];
      columns.issued[lead]![i] = f.issuedAt;
      // The observed day's provider's forecast is the one each score of a single provider compares.
      if (forecasts.provider !== own) continue;
      c.forecastValue[lead]![i] = said.value;
      c.forecastLevel[lead]![i] = LEVEL_INDEX[said.level];
      c.forecastIssued[lead]![i] = f.issuedAt;
    }
  }
}

/** Row `i` (`day`, observed at `level`): persistence, the season and the outlook as each lead's issue day kept them. */
function pairOutlooks(c: PairColumns, inputs: KeptInputs, i: number, day: number, level: number): void {
  for (let lead = 0; lead < c.leads; lead++) {
    const kept = inputs.outlooks.get(day - lead)?.categories[c.category];
    if (lead < c.reach && kept?.persistence) {
      c.persistenceValue[lead]![i] = kept.persistence.value;
      c.persistenceLevel[lead]![i] = LEVEL_INDEX[kept.persistence.level];
    }
    if (!kept) continue;
    c.inSeason[lead]![i] = kept.inSeason ? 1 : 0;
    if (lead >= OUTLOOK_LEADS) continue;
    const probabilities = kept.outlook.leads[lead]!;
    if (probabilities.members > 0) c.outlookRps[lead]![i] = rpsOfCounts(probabilities, level);
    const served = kept.served[lead];
    if (served) c.served[lead]![i] = SERVED_CODE[served];
  }
}

/** A category's pairs on its observed days from `from` to `to`. */
export function pairColumns(inputs: KeptInputs, category: Graded, from: number, to: number): PairColumns {
  const observed = inputs.observed(category);
  const days: number[] = [];
  for (const day of observed.keys()) if (day >= from && day <= to) days.push(day);
  days.sort((a, b) => a - b);
  const c = emptyColumns(inputs, category, days);
  for (let i = 0; i < c.n; i++) {
    const day = days[i]!;
    const seen = observed.get(day)!;
    const level = LEVEL_INDEX[seen.risk!];
    c.observedValue[i] = seen.value;
    c.observedLevel[i] = level;
    const climatology = inputs.climatologies.get(day)?.categories[category];
    if (climatology && climatology.members > 0) {
      c.climatologyRps[i] = rpsOfCounts(climatology, level);
      if (climatology.median) {
        c.climatologyValue[i] = climatology.median.value;
        c.climatologyLevel[i] = LEVEL_INDEX[climatology.median.level];
      }
    }
    pairForecasts(c, inputs, i, day);
    pairOutlooks(c, inputs, i, day, level);
  }
  return c;
}
