/**
 * Outlooks kept as issued (domain/verification/kept-outlooks.ts; docs/data.md, "Forecast skill"): one row per
 * city and issue day, with what the day knew and said of each graded category, packed; and
 * climatology kept by target day. Written once: a row already kept is never replaced, so an
 * outlook verified later is the one issued. Only the build's store holds them: the served store
 * carries each city's skill made from them (Store.keepServedDays).
 *
 * Packed (varints and tokens, varint-codec.ts), each category present in GRADED order:
 *   flags (in season, persistence held); persistence: days before the issue day, mean, level;
 *   the earlier years read (as years before the issue day's calendar year, plus one) and their
 *   shifts (zigzag); the anomaly and the 8 leads' weights; each lead's members and the counts of
 *   its levels held (a bitmap of levels, then their counts); what each lead served (base 3:
 *   none, outlook, climatology); and, for a build's, the window skill each choice was made on.
 * A climatology: each category's members, the counts of its levels, and its median day.
 */
import { civilDate } from '../domain/dates.js';
import { GRADED, type Graded, K, RISK_LABELS } from '../domain/species/risk.js';
import type {
  Decision,
  FrozenClimatology,
  KeptCategory,
  KeptClimatology,
  KeptOutlook,
  OutlookOrigin,
  Served,
} from '../domain/verification/kept-outlooks.js';
import { type LevelCounts, OUTLOOK_LEADS } from '../domain/verification/outlook.js';
import { decisionReason } from '../domain/verification/outlook-skill.js';
import type { Db, Row } from './database.js';
import type { Names } from './names.js';
import { Reader, Writer } from './varint-codec.js';

const ORIGINS: Record<OutlookOrigin, number> = { build: 0, 'made again': 2 };
const SERVED: ReadonlyArray<Served | null> = [null, 'outlook', 'climatology'];

const zigzag = (n: number): number => (n >= 0 ? 2 * n : -2 * n - 1);
const unzigzag = (n: number): number => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);

function writeCounts(w: Writer, c: LevelCounts): void {
  w.varint(c.members);
  if (c.members === 0) return;
  let mask = 0;
  for (let k = 0; k < K; k++) if (c.counts[k]! > 0) mask |= 1 << k;
  w.varint(mask);
  for (let k = 0; k < K; k++) if (c.counts[k]! > 0) w.varint(c.counts[k]!);
}

function readCounts(r: Reader): LevelCounts {
  const members = r.varint();
  const counts = new Array<number>(K).fill(0);
  if (members > 0) {
    const mask = r.varint();
    for (let k = 0; k < K; k++) if (mask & (1 << k)) counts[k] = r.varint();
  }
  return { members, counts };
}

const mask = <T>(categories: Partial<Record<Graded, T>>): number => GRADED.reduce((m, c, i) => (categories[c] ? m | (1 << i) : m), 0);

function packOutlook(o: KeptOutlook): Uint8Array {
  const w = new Writer();
  const year = civilDate(o.issueDay)[0];
  w.varint(mask(o.categories));
  for (const category of GRADED) {
    const c = o.categories[category];
    if (!c) continue;
    w.varint((c.inSeason ? 1 : 0) | (c.persistence ? 2 : 0));
    if (c.persistence) {
      w.varint(o.issueDay - c.persistence.day);
      w.token(c.persistence.value);
      w.varint(RISK_LABELS.indexOf(c.persistence.level));
    }
    const out = c.outlook;
    w.varint(out.earlierYears.length);
    for (const y of out.earlierYears) {
      w.varint(year + 1 - y);
      w.varint(zigzag(out.shiftDays[String(y)] ?? 0));
    }
    w.token(out.anomaly);
    for (const weight of out.weights) w.token(weight);
    for (const lead of out.leads) writeCounts(w, lead);
    w.varint(c.served.reduce((code, s, lead) => code + SERVED.indexOf(s) * 3 ** lead, 0));
    const decided = c.decisions.some((d) => d !== null);
    w.varint(decided ? 1 : 0);
    if (decided)
      for (const d of c.decisions) {
        w.varint(d?.days ?? 0);
        w.token(d?.rpss ?? null);
        w.token(d?.rpss_interval?.[0] ?? null);
        w.token(d?.rpss_interval?.[1] ?? null);
      }
  }
  return w.done();
}

function unpackOutlook(issueDay: number, source: string, origin: OutlookOrigin, data: Uint8Array): KeptOutlook {
  const r = new Reader(data);
  const year = civilDate(issueDay)[0];
  const present = r.varint();
  const categories: KeptOutlook['categories'] = {};
  for (const [i, category] of GRADED.entries()) {
    if (!(present & (1 << i))) continue;
    const flags = r.varint();
    let persistence: KeptCategory['persistence'] = null;
    if (flags & 2) {
      const day = issueDay - r.varint();
      persistence = { day, value: r.token()!, level: RISK_LABELS[r.varint()]! };
    }
    const earlierYears: number[] = [];
    const shiftDays: Record<string, number> = {};
    for (let n = r.varint(); n > 0; n--) {
      const y = year + 1 - r.varint();
      earlierYears.push(y);
      shiftDays[String(y)] = unzigzag(r.varint());
    }
    const anomaly = r.token();
    const weights = Array.from({ length: OUTLOOK_LEADS }, () => r.token()!);
    const leads = Array.from({ length: OUTLOOK_LEADS }, () => readCounts(r));
    let code = r.varint();
    const served: Array<Served | null> = [];
    for (let lead = 0; lead < OUTLOOK_LEADS; lead++, code = Math.floor(code / 3)) served.push(SERVED[code % 3]!);
    const decisions: Array<Decision | null> = new Array<Decision | null>(OUTLOOK_LEADS).fill(null);
    if (r.varint() === 1)
      for (let lead = 0; lead < OUTLOOK_LEADS; lead++) {
        const [days, rpss, low, high] = [r.varint(), r.token(), r.token(), r.token()];
        const rpss_interval: [number, number] | null = low === null || high === null ? null : [low, high];
        decisions[lead] = {
          days,
          rpss,
          rpss_interval,
          beats_climatology: rpss === null ? null : rpss > 0 && rpss_interval !== null && rpss_interval[0] > 0,
          reason: decisionReason(days, rpss, rpss_interval),
        };
      }
    categories[category] = {
      inSeason: (flags & 1) === 1,
      persistence,
      outlook: { issued: issueDay, earlierYears, shiftDays, anomaly, weights, leads },
      served,
      decisions,
    };
  }
  return { issueDay, source, origin, categories };
}

function packClimatology(c: KeptClimatology): Uint8Array {
  const w = new Writer();
  w.varint(mask(c.categories));
  for (const category of GRADED) {
    const f = c.categories[category];
    if (!f) continue;
    writeCounts(w, f);
    if (f.members > 0) {
      w.token(f.median?.value ?? null);
      w.varint(f.median ? RISK_LABELS.indexOf(f.median.level) : 0);
    }
  }
  return w.done();
}

function unpackClimatology(day: number, data: Uint8Array): KeptClimatology {
  const r = new Reader(data);
  const present = r.varint();
  const categories: KeptClimatology['categories'] = {};
  for (const [i, category] of GRADED.entries()) {
    if (!(present & (1 << i))) continue;
    const counts = readCounts(r);
    let median: FrozenClimatology['median'] = null;
    if (counts.members > 0) {
      const value = r.token();
      const level = RISK_LABELS[r.varint()]!;
      median = value === null ? null : { value, level };
    }
    categories[category] = { ...counts, median };
  }
  return { day, categories };
}

export class KeptOutlooks {
  private readonly stmt;
  private readonly transaction: <T>(work: () => T) => T;

  constructor(
    db: Db,
    private readonly names: Names,
  ) {
    this.stmt = {
      keep: db.prepare(
        'INSERT INTO outlook_issued (city_id, issue_day, source_id, origin, data) VALUES (?, ?, ?, ?, ?) ON CONFLICT (city_id, issue_day) DO NOTHING',
      ),
      keepClimatology: db.prepare(
        'INSERT INTO climatology_issued (city_id, day, data) VALUES (?, ?, ?) ON CONFLICT (city_id, day) DO NOTHING',
      ),
      since: db.prepare(
        'SELECT issue_day, source_id, origin, data FROM outlook_issued WHERE city_id = ? AND issue_day >= ? AND issue_day <= ? ORDER BY issue_day',
      ),
      climatologies: db.prepare('SELECT day, data FROM climatology_issued WHERE city_id = ? AND day >= ? AND day <= ? ORDER BY day'),
      issueDays: db.prepare('SELECT issue_day FROM outlook_issued WHERE city_id = ? AND issue_day >= ?').pluck(),
      climatologyDays: db.prepare('SELECT day FROM climatology_issued WHERE city_id = ? AND day >= ?').pluck(),
      drop: db.prepare('DELETE FROM outlook_issued WHERE issue_day < ?'),
      dropClimatologies: db.prepare('DELETE FROM climatology_issued WHERE day < ?'),
      count: db.prepare('SELECT count(*) FROM outlook_issued').pluck(),
      archive: db.prepare(
        'SELECT sum(origin = 0) build, sum(origin = 2) again FROM outlook_issued WHERE city_id = ? AND issue_day >= ? AND issue_day <= ?',
      ),
    };
    this.transaction = (work) => db.transaction(work)();
  }

  /**
   * Keeps a city's outlooks and the climatologies their issue made, in one transaction: a day
   * kept already is left as it was. Says how many outlooks it kept.
   */
  keep(city: string, outlooks: readonly KeptOutlook[], climatologies: readonly KeptClimatology[]): number {
    const id = this.names.id('city', city);
    return this.transaction(() => {
      for (const c of climatologies) this.stmt.keepClimatology.run(id, c.day, packClimatology(c));
      let kept = 0;
      for (const o of outlooks)
        kept += this.stmt.keep.run(id, o.issueDay, this.names.id('source', o.source), ORIGINS[o.origin], packOutlook(o)).changes;
      return kept;
    });
  }

  /** A city's outlooks issued from `from` to `to` (days), by issue day. */
  outlooks(city: string, from: number, to: number): Map<number, KeptOutlook> {
    const id = this.names.id('city', city);
    const out = new Map<number, KeptOutlook>();
    if (id === undefined) return out;
    for (const r of this.stmt.since.iterate(id, from, to) as Iterable<Row>) {
      const day = r.issue_day as number;
      const origin = r.origin === ORIGINS.build ? 'build' : 'made again';
      out.set(day, unpackOutlook(day, this.names.source(r.source_id as number), origin, r.data as Uint8Array));
    }
    return out;
  }

  /** A city's climatologies of the target days from `from` to `to`, by day. */
  climatologies(city: string, from: number, to: number): Map<number, KeptClimatology> {
    const id = this.names.id('city', city);
    const out = new Map<number, KeptClimatology>();
    if (id === undefined) return out;
    for (const r of this.stmt.climatologies.iterate(id, from, to) as Iterable<Row>)
      out.set(r.day as number, unpackClimatology(r.day as number, r.data as Uint8Array));
    return out;
  }

  /** The days from `from` on a city has an outlook kept for, and a climatology. */
  keptDays(city: string, from: number): { outlooks: Set<number>; climatologies: Set<number> } {
    const id = this.names.id('city', city);
    if (id === undefined) return { outlooks: new Set(), climatologies: new Set() };
    return {
      outlooks: new Set(this.stmt.issueDays.all(id, from) as number[]),
      climatologies: new Set(this.stmt.climatologyDays.all(id, from) as number[]),
    };
  }

  /** Forgets the outlooks issued before `day` and the climatologies of target days before `targets`. */
  dropBefore(day: number, targets: number): number {
    const dropped = this.stmt.drop.run(day).changes;
    this.stmt.dropClimatologies.run(targets);
    return dropped;
  }

  /** How many of a city's outlooks issued from `from` to `to` are kept: a build's, and made again. */
  archive(city: string, from: number, to: number): { issued: number; madeAgain: number } {
    const id = this.names.id('city', city);
    const r = (id === undefined ? undefined : this.stmt.archive.get(id, from, to)) as Row | undefined;
    return { issued: (r?.build as number | null) ?? 0, madeAgain: (r?.again as number | null) ?? 0 };
  }

  /** How many outlooks are kept. */
  count(): number {
    return this.stmt.count.get() as number;
  }
}
