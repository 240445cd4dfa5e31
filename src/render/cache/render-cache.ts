/**
 * The render cache (beside the store by default, or `--cache`, `$RENDER_CACHE`): the previous
 * build's output, as hard links to its files, and what each of its parts was made from. A render
 * reuses a unit's files while the digest of its inputs is unchanged and they are exactly the files
 * the unit writes, and a bulk month's files while the manifest records the same inputs, columns
 * and paths; each reused file is checked against what was recorded when it was written. It renders
 * the rest, then keeps its own output for the next.
 *
 * A bad cache only costs time, never the build: whatever does not match what is on disk (a file
 * missing or changed, a unit whose files differ from the ones it writes, a state that does not
 * parse) is rendered again; a state or manifest naming a path outside the cache's folder, or an
 * output holding anything but files and folders (a symbolic link), is a cache that was tampered
 * with, and is ignored whole, with a warning. The scheduled rebuild restores this folder from CI's
 * cache store, so it is input like any other.
 */
import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import type { BulkFile, BulkManifest } from '../../deploy-data/bulk-index.js';
import { leftoverPid, processAlive, TEMP_FILE } from '../../deploy-data/leftovers.js';
import { kindAt, readNoFollow } from '../../deploy-data/safe-files.js';
import { writeJsonFile } from '../../deploy-data/site-file.js';
import { BULK_INDEX_FILE, type BulkSlot } from '../../output/bulk/months.js';
import { type FileRecord, statOf } from '../../output/file-records.js';
import type { ShardParts } from '../../store/shards/shard-writer.js';
import { fileSha256, inside, linkOrCopy, walk } from './cache-files.js';
import { CACHE_KEY_SECRET, signatureOf, signedBy } from './key.js';

/** What a unit's files were made from, and its files. */
export interface CachedUnit {
  digest: string;
  files: string[];
}

const SHA256 = z.string().regex(/^[0-9a-f]{64}$/);

const STATE = z.object({
  code: z.string(),
  /** The SHA-256 of the output's bulk manifest, which says what each bulk file was made from. */
  manifest: SHA256.nullable().default(null),
  /** Each city's closed season years' scores, as the forecast-skill step keeps them (scoring/scoring-plan.ts): its file's SHA-256. */
  skills: z.record(z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/), SHA256).default({}),
  units: z.record(z.string(), z.object({ digest: z.string(), files: z.array(z.string()) })),
  /** What each quarter's city shards and each day's shard were made from, and their keys and sizes by name (shard-writer.ts). */
  shards: z
    .record(z.string(), z.object({ digest: z.string(), shards: z.record(z.string(), z.tuple([SHA256, z.number().int().nonnegative()])) }))
    .default({}),
  files: z.record(
    z.string(),
    z.tuple([SHA256, z.number().int().nonnegative(), z.string().regex(/^\d+$/), z.string().regex(/^\d+$/), z.boolean()]),
  ),
});
type CacheState = z.infer<typeof STATE>;

/**
 * Modification times are only as fine as the file system's clock: Linux stamps them from a
 * coarse clock (a few milliseconds), and some file systems keep whole seconds or two. A file
 * changed within that tick of its last write keeps its time, so a time this close to when it was
 * recorded does not vouch for the content (git calls such entries racily clean:
 * Documentation/technical/racy-git.txt, `is_racy_timestamp` in read-cache.c); those are hashed.
 */
const CLOCK_TICK_NS = 2_000_000_000n;

/** The state file: the state's text and its signature (cache-key.ts), so that the text signed is the text read. */
const SIGNED = z.object({ signature: z.string(), state: z.string() });

/**
 * What the cache holds, checked; or why it is ignored (a warning), or nothing (none, or made by
 * other code). Nothing on the way is a link: its state and its output are refused when they are
 * (a cache folder that is one the render never uses), and the state is read only when `key` signed it.
 */
export function loadCache(dir: string, code: string, key: Buffer): { state?: CacheState; manifest?: BulkManifest; warning?: string } {
  const [output, statePath] = [join(dir, 'output'), join(dir, 'state.json')];
  let signed: z.infer<typeof SIGNED>;
  try {
    signed = SIGNED.parse(JSON.parse(readNoFollow(statePath).toString('utf8')));
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code;
    if (errno === 'ENOENT') return {};
    if (errno === 'ELOOP') return { warning: `the render cache's state (${statePath}) is a link: it is ignored` };
    return { warning: `the render cache's state (${statePath}) does not parse: it is ignored` };
  }
  if (!signedBy(key, signed.state, signed.signature))
    return {
      warning: `the render cache's state (${statePath}) is not signed with this build's key (${CACHE_KEY_SECRET}, or render-cache.key beside the store): it is ignored, and the render starts fresh`,
    };
  const outputKind = kindAt(output);
  if (outputKind === 'none') return {};
  if (outputKind !== 'folder')
    return { warning: `the render cache's output (${output}) is not a folder but a link or another file: it is ignored` };
  let raw: unknown;
  try {
    raw = JSON.parse(signed.state);
  } catch {
    return { warning: `the render cache's state (${statePath}) does not parse: it is ignored` };
  }
  const parsed = STATE.safeParse(raw);
  if (!parsed.success)
    return { warning: `the render cache's state (${join(dir, 'state.json')}) is not one a render writes: it is ignored` };
  const state = parsed.data;
  if (state.code !== code) return {};
  // The manifest as the state recorded it, else none (its months are rendered again).
  let manifest: BulkManifest | undefined;
  try {
    const bytes = readNoFollow(join(output, BULK_INDEX_FILE));
    if (createHash('sha256').update(bytes).digest('hex') === state.manifest) manifest = JSON.parse(bytes.toString('utf8')) as BulkManifest;
  } catch {
    manifest = undefined;
  }
  const paths = [
    ...Object.keys(state.files),
    ...Object.values(state.units).flatMap((u) => u.files),
    ...(Array.isArray(manifest?.files) ? manifest.files.map((f) => String(f?.path).replace(/^\//, '')) : []),
  ];
  const outside = paths.find((p) => !inside(p));
  if (outside !== undefined)
    return { warning: `the render cache names a file outside its folder (${JSON.stringify(outside)}): it is ignored` };
  const { odd } = walk(output);
  if (odd !== undefined) return { warning: `the render cache's output holds ${JSON.stringify(odd)}, which is not a file: it is ignored` };
  return { state, ...(manifest ? { manifest } : {}) };
}

/** Where the render cache keeps each city's closed season years' scores. */
export const skillYearsDir = (dir: string): string => join(dir, 'skills');

/** What the render cache holds. */
const CACHE_ENTRIES = ['state.json', 'output', 'skills'];
/** What a render writes into the cache before it keeps it: the scores' folder (render.ts), the state's file (writeJsonFile). */
export const CACHE_LEFTOVERS = [/^skills\.next-(\d+)-[0-9a-f]{12}$/, TEMP_FILE];

/** What a render leaves the next one (RenderCache.save): its files, and what they were made from. */
export interface KeptRender {
  /** The render's folder: the files of `records`, and the bulk manifest. */
  folder: string;
  /** The code's digest (codeDigest) and the key the state is signed with. */
  code: string;
  key: Buffer;
  /** Whether the cache's output folder may be brought to the render's files in place (else it is made again). */
  reuse: boolean;
  /** What each unit's files were made from, and each file's record. */
  units: Record<string, CachedUnit>;
  records: Map<string, FileRecord>;
  /** The closed years' scores the render wrote, by city, with their SHA-256. */
  skills?: { dir: string; sha256: Record<string, string> };
  /** The shards' parts, for the next render's shards step. */
  shards?: ShardParts;
}

export class RenderCache {
  /** The previous build's files, by their path under the publish folder. */
  private readonly output: string;
  private readonly units: CacheState['units'];
  private readonly records: CacheState['files'];
  private readonly skills: CacheState['skills'];
  private readonly shards: CacheState['shards'];
  private readonly manifest: BulkManifest | undefined;

  /** A cache checked by `loadCache` (in the render's thread); each worker reads it again. */
  constructor(
    readonly dir: string,
    code: string,
    key: Buffer,
  ) {
    this.output = join(dir, 'output');
    const { state, manifest } = loadCache(dir, code, key);
    this.units = state?.units ?? {};
    this.records = state?.files ?? {};
    this.skills = state?.skills ?? {};
    this.shards = state?.shards ?? {};
    this.manifest = manifest;
  }

  /** The previous build's shards, by quarter and day, with what each part was made from (shard-writer.ts). */
  shardParts(): ShardParts {
    return this.shards;
  }

  /** The previous build's closed season years' scores: their folder, and each city's file's SHA-256 as recorded. */
  skillYears(): { dir: string; sha256: Record<string, string> } {
    return { dir: skillYearsDir(this.dir), sha256: this.skills };
  }

  /**
   * The record of a file of the output, when it still holds what was recorded: its size, inode
   * and time unchanged (a settled record), else its SHA-256 recomputed.
   */
  private verified(file: string): FileRecord | undefined {
    const record = this.records[file];
    if (!record) return undefined;
    const path = join(this.output, file);
    const st = statOf(path);
    if (!st || Number(st.size) !== record[1]) return undefined;
    const same = String(st.ino) === record[2] && String(st.mtimeNs) === record[3];
    if (same && record[4]) return record;
    if (fileSha256(path) !== record[0]) return undefined;
    return [record[0], record[1], String(st.ino), String(st.mtimeNs), false];
  }

  /** Each of `files` verified, or undefined when any is not. */
  private all(files: readonly string[]): Map<string, FileRecord> | undefined {
    const found = new Map<string, FileRecord>();
    for (const file of files) {
      const record = this.verified(file);
      if (!record) return undefined;
      found.set(file, record);
    }
    return found;
  }

  /**
   * The previous build's files of a unit, put under `folder` when made from the same inputs, when
   * they are exactly `expected` (the files the unit writes) and each still holds what was recorded
   * (the output is hard links: a file edited in place in an old publish folder is edited here too).
   */
  unit(key: string, digest: string, expected: readonly string[], folder: string): Map<string, FileRecord> | undefined {
    const cached = this.units[key];
    if (cached?.digest !== digest || !sameSet(cached.files, expected)) return undefined;
    const found = this.all(expected);
    if (found) for (const file of expected) this.link(file, folder);
    return found;
  }

  /**
   * The previous build's bulk files of a month (or with `month` null the seasons file), put under
   * `folder` when the manifest records them made from the same inputs, with today's columns and
   * paths, each still holding what was recorded.
   */
  bulk(
    expected: readonly BulkSlot[],
    month: string | null,
    inputs: string,
    columns: Record<string, string[]>,
    folder: string,
  ): { files: BulkFile[]; records: Map<string, FileRecord> } | undefined {
    const entries = Array.isArray(this.manifest?.files) ? this.manifest.files : [];
    const files: BulkFile[] = [];
    for (const { path, kind, format } of expected) {
      const f = entries.find((e) => e?.path === path);
      if (!f || f.kind !== kind || f.format !== format || f.month !== month || f.inputs_sha256 !== inputs) return undefined;
      const record = this.records[path.slice(1)];
      if (!sameList(f.columns, columns[kind]!) || record?.[0] !== f.sha256 || record[1] !== f.bytes) return undefined;
      files.push(f);
    }
    const records = this.all(files.map((f) => f.path.slice(1)));
    if (!records) return undefined;
    for (const f of files) this.link(f.path.slice(1), folder);
    return { files, records };
  }

  private readonly made = new Set<string>();

  /** A hard link (else a copy) of an output file under `folder`, a new render's: its folders made once, nothing there to replace. */
  private link(file: string, folder: string): void {
    const to = join(folder, file);
    const dir = dirname(to);
    if (!this.made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.made.add(dir);
    }
    try {
      linkSync(join(this.output, file), to);
    } catch {
      linkOrCopy(join(this.output, file), to);
    }
  }

  /**
   * Keeps a render's output (the files of `records`, and the manifest, under `folder`) and what
   * its units were made from, for the next render. The output folder is brought to the render's
   * files in place, when it holds only what an earlier state vouched for: files the render reused
   * are the same inodes already, so only new ones are linked and gone ones removed; else it is made
   * again. The state goes first and comes back last, so an interrupted save leaves no state.
   */
  static save(dir: string, kept: KeptRender): void {
    const { folder, code, units, records, reuse, key, skills, shards = {} } = kept;
    const [output, statePath] = [join(dir, 'output'), join(dir, 'state.json')];
    mkdirSync(dir, { recursive: true });
    // Nothing is written through a link: a cache folder that is one is not kept (the caller warns).
    if (kindAt(dir) !== 'folder') throw new Error(`${dir} is not a folder but a link or another file`);
    rmSync(statePath, { force: true });
    // The closed years' scores: the render's folder of them takes the previous one's place.
    rmSync(skillYearsDir(dir), { recursive: true, force: true });
    if (skills) renameSync(skills.dir, skillYearsDir(dir));
    // CI saves this folder whole: it keeps its state, output and scores, and only what a render still running is writing.
    for (const name of readdirSync(dir)) {
      if (CACHE_ENTRIES.includes(name)) continue;
      const pid = leftoverPid(name, CACHE_LEFTOVERS);
      if (pid === undefined || !processAlive(pid)) rmSync(join(dir, name), { recursive: true, force: true });
    }
    // An output that is a link, or holds one, is made again (rm removes a link, never what it points to).
    if (!reuse || kindAt(output) !== 'folder' || walk(output).odd !== undefined) rmSync(output, { recursive: true, force: true });
    mkdirSync(output, { recursive: true });
    const keep = new Set([...records.keys(), BULK_INDEX_FILE]);
    for (const file of walk(output).files) if (!keep.has(file)) rmSync(join(output, file), { force: true });
    const startedNs = BigInt(Date.now()) * 1_000_000n;
    const files: CacheState['files'] = {};
    for (const file of keep) {
      const [from, to] = [join(folder, file), join(output, file)];
      const st = statOf(from);
      if (!st) continue;
      const there = statOf(to);
      if (there?.ino !== st.ino) linkOrCopy(from, to);
      const record = records.get(file);
      if (!record) continue;
      // The file as it is now is the one recorded, and old enough that its time vouches for it.
      const settled =
        String(st.ino) === record[2] &&
        String(st.mtimeNs) === record[3] &&
        Number(st.size) === record[1] &&
        st.mtimeNs < startedNs - CLOCK_TICK_NS;
      files[file] = [record[0], record[1], record[2], record[3], settled];
    }
    const manifest = fileSha256(join(output, BULK_INDEX_FILE)) ?? null;
    const text = JSON.stringify({ code, manifest, skills: skills?.sha256 ?? {}, units, shards, files } satisfies CacheState);
    writeJsonFile(statePath, { signature: signatureOf(key, text), state: text } satisfies z.infer<typeof SIGNED>);
  }
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean => {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return set.size === a.length && b.every((x) => set.has(x));
};

const sameList = (a: unknown, b: readonly string[]): boolean => Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);
