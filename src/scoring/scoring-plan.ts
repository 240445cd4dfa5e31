/**
 * What the forecast-skill step reuses from the previous build's render cache, decided before any
 * city is scored (score-cities.ts): each month's pairs files while what they are made from is
 * unchanged, and each city's scores of a closed season year likewise. So a daily render scores the
 * day's new pairs and the periods still open (the trailing window, its days in season, each
 * category's season year under way), and writes the current month's pairs files.
 *
 * What a month's pairs, or a year's scores, are made from is known by day without reading a pair
 * (store/digests.ts): the served days' values, and the forecasts, outlooks and climatologies the
 * build's store kept by issue and target day. A digest over the days that reach them names them:
 * the outlooks issued up to 7 days before, the forecasts issued up to 14 days before (a daily
 * provider's reach).
 */
import { createHash } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import type { BulkFile } from '../deploy-data/bulk-index.js';
import { readNoFollow } from '../deploy-data/safe-files.js';
import { dayString } from '../domain/dates.js';
import { seasonYear, seasonYearOf } from '../domain/seasons/year.js';
import { GRADED } from '../domain/species/risk.js';
import { yearKey } from '../domain/verification/forecast-skill.js';
import { PROVIDER_LEADS } from '../domain/verification/leads.js';
import { OUTLOOK_LEADS } from '../domain/verification/outlook.js';
import type { SkillYear } from '../domain/verification/skill-schemas.js';
import { type BulkSlot, bulkMonths, bulkPath, FORMATS, type Month, WRITER } from '../output/bulk/months.js';
import { type PairLayout, pairFields } from '../output/bulk/pair-columns.js';
import type { FileRecord } from '../output/file-records.js';
import type { Store } from '../store/store.js';

export interface SkillsPlan {
  /** The served months, each with the digest of what its pairs are made from, and whether its files are the cache's (in the render's folder already). */
  months: Array<Month & { digest: string; reused: boolean }>;
  /** The digest of what each closed season year's scores are made from, by yearKey; a year closed on the newest served day. */
  years: Record<string, string>;
  /** The previous build's scores of closed years, by city: its file in the render cache and the SHA-256 the cache recorded of it. */
  cached: { dir: string; sha256: Record<string, string> } | undefined;
  /** Where this render keeps each city's closed years for the next (the render cache takes the folder when the render is published); none without a cache. */
  nextDir: string | undefined;
  /** The providers whose kept forecasts the pairs files carry, with the leads each reaches. */
  layout: PairLayout;
}

/**
 * What the step asks of the previous build's output (the render cache, render/cache/render-cache.ts):
 * a month's pairs files when they were made from the same inputs and columns, linked into the
 * render's folder; and the closed years' scores it kept.
 */
export interface ScoresCache {
  bulk(
    expected: readonly BulkSlot[],
    month: string | null,
    inputs: string,
    columns: Record<string, string[]>,
    folder: string,
  ): { files: BulkFile[]; records: Map<string, FileRecord> } | undefined;
  skillYears(): { dir: string; sha256: Record<string, string> };
}

const NONE = Buffer.alloc(0);

/** The digest of what the pairs of days `from` to `to` are made from, every city's. */
function spanDigest(
  label: string,
  from: number,
  to: number,
  days: ReturnType<Store['checks']['dayDigests']>,
  kept: ReturnType<Store['checks']['dayDigests']>['kept'],
): string {
  const hash = createHash('sha256').update(`${WRITER}\n${label}\n`).update(days.names);
  const part = (name: string, digests: Map<number, Buffer>, first: number) => {
    hash.update(`${name}\n`);
    for (let day = first; day <= to; day++) hash.update(`${day} `).update(digests.get(day) ?? NONE);
  };
  part('values', days.values[0], from);
  part('climatologies', kept.climatologies, from);
  part('outlooks', kept.outlooks, from - OUTLOOK_LEADS + 1);
  // A daily provider's forecast issued 13 days before (in the place's date, a UTC day more) reaches the day at lead 13.
  part('forecasts', kept.forecasts, from - PROVIDER_LEADS);
  return hash.digest('hex');
}

/** The pairs files' columns and the cities served: what every month's digest begins with. */
const columnsOf = (served: Store, layout: PairLayout): string =>
  `${pairFields(layout)
    .map((f) => `${f.name} ${f.type}`)
    .join(',')}\n${served.cities.set().slugs.join(',')}`;

/**
 * The plan of the step: each month's digest and whether the render cache holds its files (linked
 * into `folder` now, with their records), and each closed year's digest.
 */
export function planSkills(
  store: Store,
  served: Store,
  folder: string,
  cache: ScoresCache | undefined,
  nextDir: string | undefined,
): { plan: SkillsPlan; reused: { files: BulkFile[]; records: Map<string, FileRecord> } } {
  const days = served.checks.dayDigests();
  const { kept } = store.checks.dayDigests();
  const layout = store.issued.reach(PROVIDER_LEADS);
  const columns = columnsOf(served, layout);
  const names = pairFields(layout).map((f) => f.name);
  const files: BulkFile[] = [];
  const records = new Map<string, FileRecord>();
  const months = bulkMonths(served).map((month) => {
    const digest = spanDigest(`forecast-pairs ${month.month}\n${columns}`, month.from, month.to, days, kept);
    const slots = FORMATS.map((format) => ({
      path: `/${bulkPath('forecast-pairs', month.month, format)}`,
      kind: 'forecast-pairs' as const,
      format,
    }));
    const found = cache?.bulk(slots, month.month, digest, { 'forecast-pairs': names }, folder);
    if (found) {
      files.push(...found.files);
      for (const [file, record] of found.records) records.set(file, record);
    }
    return { ...month, digest, reused: found !== undefined };
  });
  const years: Record<string, string> = {};
  const [first, newest] = [months[0]?.from, months.at(-1)?.to];
  if (first !== undefined && newest !== undefined)
    for (const category of GRADED)
      for (let year = seasonYearOf(category, first); seasonYear(category, year).to < newest; year++) {
        const span = seasonYear(category, year);
        years[yearKey(category, year)] = spanDigest(
          `year ${yearKey(category, year)} from ${dayString(first)}\n${columns}`,
          Math.max(span.from, first),
          span.to,
          days,
          kept,
        );
      }
  const cached = cache?.skillYears();
  return { plan: { months, years, cached, nextDir, layout }, reused: { files, records } };
}

/** A city's scores of closed years, kept for the next render: by yearKey, each with the digest it was made from. */
export type CityYears = Record<string, { digest: string; scores: SkillYear[] }>;

/**
 * A city's closed years from the render cache, those made from what the plan's digests say; none
 * when its file is missing, not what the cache recorded, or not such a record.
 */
export function cachedYears(plan: SkillsPlan, city: string): CityYears {
  const sha = plan.cached?.sha256[city];
  if (!plan.cached || !sha) return {};
  try {
    const bytes = readCacheFile(plan.cached.dir, city);
    if (createHash('sha256').update(bytes).digest('hex') !== sha) return {};
    const years = JSON.parse(inflateRawSync(bytes).toString('utf8')) as unknown;
    if (years === null || typeof years !== 'object') return {};
    const out: CityYears = {};
    for (const [key, entry] of Object.entries(years as Record<string, unknown>)) {
      const e = entry as { digest?: unknown; scores?: unknown };
      if (plan.years[key] === undefined || e.digest !== plan.years[key] || !Array.isArray(e.scores)) continue;
      out[key] = { digest: e.digest, scores: e.scores as SkillYear[] };
    }
    return out;
  } catch {
    return {};
  }
}

/** The file of a city's closed years in a folder of them. */
export const cityYearsFile = (dir: string, city: string): string => `${dir}/${city}.json.deflate`;

function readCacheFile(dir: string, city: string): Buffer {
  // Read through a descriptor opened without following a link: the cache is input like any other.
  return readNoFollow(cityYearsFile(dir, city));
}
