/**
 * A sample's tables scored: one period's days on which a forecast and its references are all
 * paired with what was observed (forecast-skill.ts chooses them), every table on the same days and
 * its intervals on the same resampled days (bootstrap.ts); what a sample's observed levels allow
 * it to score, and why not.
 */
import type { SkillTable } from '../schemas.js';
import { K, LEVEL_INDEX, RISK_LABELS } from '../species/risk.js';
import { type Interval, percentileInterval, resampledTables, resamplesOf } from './bootstrap.js';
import { rmseLog, spearman } from './continuous-scores.js';
import {
  countsOf,
  EVENT,
  EVERY_CELL,
  eventCounts,
  type Levels,
  levelScores,
  MIN_ABOVE_NONE,
  MIN_LEVEL_DAYS,
  MIN_LEVELS,
  MIN_PAIRS,
  none,
  type Pair,
  podFar,
  type Score,
  tidy,
  value,
} from './scores.js';
import { type Unrounded, verdictOf } from './verdicts.js';

/** The observed levels of a sample, counted: why its tables cannot score levels (too few levels, or days above None), or null. */
export function levelsReason(observed: Uint8Array): string | null {
  const byLevel = new Array<number>(K).fill(0);
  for (const o of observed) byLevel[o]!++;
  const seen = byLevel.flatMap((n, i) => (n > 0 ? [`${RISK_LABELS[i]} ${n}`] : []));
  if (seen.length === 1)
    return `every observed day was ${RISK_LABELS[byLevel.findIndex((n) => n > 0)]}: with one observed level, skill cannot be told from chance`;
  if (seen.length < MIN_LEVELS)
    return `only ${seen.length} observed levels (${seen.join(', ')} days): a yes/no forecast, on which Gerrity's score is the Peirce skill score, not a score of ${MIN_LEVELS} or more levels`;
  const aboveNone = observed.length - byLevel[0]!;
  if (aboveNone < MIN_ABOVE_NONE)
    return `only ${aboveNone} observed day${aboveNone === 1 ? '' : 's'} above None, fewer than the ${MIN_ABOVE_NONE} a score of levels needs`;
  const rare = byLevel.flatMap((n, i) => (n > 0 && n < MIN_LEVEL_DAYS ? [`${RISK_LABELS[i]} on ${n} day${n === 1 ? '' : 's'}`] : []));
  if (rare.length > 0)
    return `observed ${rare.join(' and ')} (${seen.join(', ')} days): each observed level needs ${MIN_LEVEL_DAYS} days, or a score of levels rests on those few`;
  return null;
}

/** Why no Spearman or RMSE: every observed day None (a table of quiet days says nothing of a forecast's error in a season), or null. */
export function valuesReason(observed: Uint8Array): string | null {
  for (const o of observed) if (o !== 0) return null;
  return observed.length === 0
    ? null
    : 'every observed day was None: errors on days without pollen to speak of say nothing of the forecast';
}

/** An interval as answers give it, [low, high] tidied; or null with why. */
function intervalOf(values: Float64Array | undefined, reason: string | null): { interval: [number, number] | null; reason?: string } {
  if (reason !== null || values === undefined) return { interval: null, ...(reason === null ? {} : { reason }) };
  const i: Interval = percentileInterval(values);
  return 'reason' in i ? { interval: null, reason: i.reason } : { interval: [tidy(i.low), tidy(i.high)] };
}

/** How a sample's tables are scored: from how many days, and whether its observed levels allow scores of levels. */
interface TableContext {
  /** Why no score at all (too few days), or null. */
  few: string | null;
  /** Why no score of levels (levelsReason), or null. */
  levels: string | null;
  /** Why no Spearman or RMSE (valuesReason), or null. */
  values: string | null;
  /** Observed days below the event level: POD and FAR need MIN_EVENTS of them too. */
  nonEvents: number;
}

/** One forecast's table and scores over a sample, with the intervals of its scores of levels (resampled, or none). */
function scoreTable(
  forecast: Levels,
  observed: Levels,
  c: TableContext,
  resampled?: Float64Array[],
): { table: SkillTable; point: Unrounded } {
  const counts = countsOf(forecast.levels, observed.levels);
  const table = RISK_LABELS.map((_, f) => RISK_LABELS.map((_, o) => counts[K * f + o]!));
  const high = eventCounts(counts);
  const base = { table, high };
  const withheld = { heidke: Number.NaN, gerrity: Number.NaN };
  if (c.few !== null)
    return {
      table: {
        ...base,
        heidke: null,
        heidke_interval: null,
        gerrity: null,
        gerrity_interval: null,
        pod: null,
        far: null,
        spearman: null,
        rmse_log: null,
        score_reasons: {},
      },
      point: withheld,
    };
  const ofLevels = (score: number): Score => (c.levels === null ? value(score) : none(c.levels));
  const ofValues = (score: () => Score): Score => (c.values === null ? score() : none(c.values));
  const point = new Float64Array(2);
  levelScores(counts, 0, EVERY_CELL, point);
  const scores: Record<'heidke' | 'gerrity' | 'pod' | 'far' | 'spearman' | 'rmse_log', Score> = {
    heidke: ofLevels(point[0]!),
    gerrity: ofLevels(point[1]!),
    ...podFar(high, c.nonEvents),
    spearman: ofValues(() => spearman(forecast.values, observed.values)),
    rmse_log: ofValues(() => rmseLog(forecast.values, observed.values)),
  };
  const score_reasons: Record<string, string> = {};
  for (const [name, score] of Object.entries(scores)) if (score.reason !== null) score_reasons[name] = score.reason;
  const heidkeInterval = intervalOf(resampled?.[0], c.levels);
  const gerrityInterval = intervalOf(resampled?.[1], c.levels);
  if (c.levels === null) {
    if (heidkeInterval.reason) score_reasons.heidke_interval = heidkeInterval.reason;
    if (gerrityInterval.reason) score_reasons.gerrity_interval = gerrityInterval.reason;
  }
  const at = (s: Score) => (s.value === null ? null : tidy(s.value));
  return {
    table: {
      ...base,
      heidke: at(scores.heidke),
      heidke_interval: heidkeInterval.interval,
      gerrity: at(scores.gerrity),
      gerrity_interval: gerrityInterval.interval,
      pod: at(scores.pod),
      far: at(scores.far),
      spearman: at(scores.spearman),
      rmse_log: at(scores.rmse_log),
      score_reasons,
    },
    point: c.levels === null ? { heidke: point[0]!, gerrity: point[1]! } : withheld,
  };
}

/** The references a sample holds: each one's index among its tables. */
export interface SampleReferences {
  persistence?: number;
  climatology?: number;
}

/**
 * The tables of forecasts scored on the same days (a homogeneous sample: a forecast and its
 * references), each with Heidke's and Gerrity's scores and their intervals from one moving-block
 * bootstrap of the days (the same resampled days for every table, drawn from `key`'s seed); no
 * score from fewer than MIN_PAIRS days, none of levels from too few observed levels (levelsReason).
 * Each table that is not one of `references` gets a verdict against each of them.
 */
export function scoreSample(
  observed: Levels,
  forecasts: readonly Levels[],
  key: string,
  references: SampleReferences = {},
): { days: number; reason: string | null; tables: SkillTable[] } {
  const n = observed.levels.length;
  const few = n < MIN_PAIRS ? `${n} paired day${n === 1 ? '' : 's'}, fewer than the ${MIN_PAIRS} a score needs` : null;
  let nonEvents = 0;
  for (const o of observed.levels) if (o < EVENT) nonEvents++;
  const c: TableContext = {
    few,
    levels: few === null ? levelsReason(observed.levels) : null,
    values: valuesReason(observed.levels),
    nonEvents,
  };
  let resampled: Array<Float64Array[] | undefined> | undefined;
  if (c.few === null && c.levels === null) {
    const cells = forecasts.map((f) => {
      const table = new Uint8Array(n);
      for (let i = 0; i < n; i++) table[i] = K * f.levels[i]! + observed.levels[i]!;
      return table;
    });
    resampled = cells.map((table) => RESAMPLED.find(key, table));
    const left = cells.flatMap((_, t) => (resampled![t] === undefined ? [t] : []));
    if (left.length > 0) {
      // A resample's table holds days only in the cells its sample's does: each table counts those
      // cells alone (its support, in cell order), day i in its cell's place there.
      const supports: Uint8Array[] = [];
      const slots = left.map((t) => {
        const support = Uint8Array.from(new Set(cells[t]!)).sort();
        const slotOf = new Uint8Array(K * K);
        for (let k = 0; k < support.length; k++) slotOf[support[k]!] = k;
        supports.push(support);
        return cells[t]!.map((cell) => slotOf[cell]!);
      });
      const made = resampledTables(
        slots,
        supports.map((support) => support.length),
        resamplesOf(n, key),
        2,
        (counts, at, t, out) => levelScores(counts, at, supports[t]!, out),
      );
      for (const [i, t] of left.entries()) {
        resampled[t] = made[i]!;
        RESAMPLED.keep(key, cells[t]!, made[i]!);
      }
    }
  }
  const scored = forecasts.map((f, t) => scoreTable(f, observed, c, resampled?.[t]));
  const refs = (['persistence', 'climatology'] as const).flatMap((name) => {
    const t = references[name];
    return t === undefined ? [] : [{ name, t }];
  });
  const isReference = new Set(refs.map((r) => r.t));
  const why = c.few ?? c.levels;
  const tables = scored.map((s, t) =>
    isReference.has(t) || refs.length === 0
      ? s.table
      : {
          ...s.table,
          verdicts: refs.map((r) =>
            verdictOf(
              r.name,
              { point: s.point, resampled: resampled?.[t] },
              { point: scored[r.t]!.point, resampled: resampled?.[r.t] },
              why,
            ),
          ),
        },
  );
  return { days: n, reason: few, tables };
}

/**
 * A table's resampled scores lately made, by the period's key and the table's cells: a reference
 * scored at the next lead on the same days (climatology, which does not change with the lead) has
 * the same cells and the same resamples, so the same scores.
 */
class RecentTables {
  private readonly kept: Array<{ key: string; cells: Uint8Array; scores: Float64Array[] }> = [];

  constructor(private readonly size: number) {}

  find(key: string, cells: Uint8Array): Float64Array[] | undefined {
    for (const k of this.kept) if (k.key === key && sameBytes(k.cells, cells)) return k.scores;
    return undefined;
  }

  keep(key: string, cells: Uint8Array, scores: Float64Array[]): void {
    if (this.kept.length === this.size) this.kept.shift();
    this.kept.push({ key, cells, scores });
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/** Three tables a lead, and leads 0 to 2. */
const RESAMPLED = new RecentTables(9);

/** One forecast's scores over pairs (a sample of one table, unresampled): its table and scores, for one-off scoring and tests. */
export function skill(pairs: readonly Pair[], key = ''): SkillTable & { days: number; reason: string | null } {
  const columns = (side: 'forecast' | 'observed'): Levels => ({
    values: Float64Array.from(pairs, (p) => p[side].value),
    levels: Uint8Array.from(pairs, (p) => LEVEL_INDEX[p[side].level]),
  });
  const { days, reason, tables } = scoreSample(columns('observed'), [columns('forecast')], key);
  return { days, reason, ...tables[0]! };
}
