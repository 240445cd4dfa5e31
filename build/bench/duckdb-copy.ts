/**
 * B1's floor for the bulk files: DuckDB's `COPY` of the same files the render wrote (every
 * month's Parquet and gzip CSV of the monthly kinds, and the forecast-pairs files), from their
 * rows loaded beforehand into a DuckDB database of its own, in wall time with DuckDB's default
 * threads (every core).
 */
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { BulkKind, BulkManifest } from '../../src/deploy-data/bulk-index.js';
import { BULK_KINDS } from '../../src/output/bulk/months.js';
import { CODEC } from '../../src/output/bulk/writers.js';

/** The kinds B1's floor writes: the monthly kinds and the forecast pairs (not the seasons file). */
const COPIED: readonly BulkKind[] = [...BULK_KINDS, 'forecast-pairs'];

/** One file pair of the render (a kind's month, or the pairs), as a table of its rows. */
interface Copied {
  table: string;
  /** The file's name without its format, as the render names it. */
  name: string;
  /** Its columns in the render's order, quoted for SQL. */
  select: string;
  rows: number;
  /** The most rows in one of the render's row groups: DuckDB's ROW_GROUP_SIZE. */
  groupRows: number;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** DuckDB's COPY of the render's bulk files: their rows loaded once; then each pass timed. */
export class DuckdbCopy {
  private constructor(
    private readonly database: string,
    private readonly out: string,
    readonly files: readonly Copied[],
  ) {}

  /**
   * Loads every Parquet file of the copied kinds that the render in `publish` wrote (found by its
   * bulk manifest) into a table of a new DuckDB database in `dir`, in file order: untimed.
   */
  static async load(publish: string, dir: string): Promise<DuckdbCopy> {
    const root = realpathSync(publish);
    const manifest = JSON.parse(await readFile(join(root, 'data', 'bulk', 'index.json'), 'utf8')) as BulkManifest;
    const parquet = manifest.files.filter((f) => f.format === 'parquet' && COPIED.includes(f.kind));
    const database = join(dir, 'copy-floor.duckdb');
    rmSync(database, { force: true });
    const files: Copied[] = [];
    await withDuckdb(database, async (con) => {
      for (const [i, f] of parquet.entries()) {
        const table = `t${i}`;
        const path = literal(join(root, f.path));
        await con.run(`CREATE TABLE ${table} AS SELECT * FROM read_parquet(${path})`);
        const groups = await con.runAndReadAll(`SELECT max(row_group_num_rows) FROM parquet_metadata(${path})`);
        const name = f.path
          .split('/')
          .at(-1)!
          .replace(/\.parquet$/, '');
        files.push({
          table,
          name,
          select: f.columns.map(quoted).join(', '),
          rows: f.rows,
          groupRows: Number(groups.getRows()[0]?.[0] ?? 0),
        });
      }
    });
    return new DuckdbCopy(database, join(dir, 'duckdb-copy'), files);
  }

  /** Wall seconds for DuckDB to write every file again; the files it wrote are removed after (and checked first when `check`). */
  async seconds(check?: (line: string) => void): Promise<number> {
    rmSync(this.out, { recursive: true, force: true });
    mkdirSync(this.out, { recursive: true });
    try {
      return await withDuckdb(this.database, async (con) => {
        await con.run("SET TimeZone = 'UTC'");
        const t0 = performance.now();
        for (const f of this.files) {
          const rows = `(SELECT ${f.select} FROM ${f.table})`;
          const groups = f.groupRows > 0 ? `, ROW_GROUP_SIZE ${f.groupRows}` : '';
          await con.run(
            `COPY ${rows} TO ${literal(this.path(f, 'parquet'))} (FORMAT parquet, COMPRESSION ${CODEC.toLowerCase()}${groups})`,
          );
          await con.run(`COPY ${rows} TO ${literal(this.path(f, 'csv.gz'))} (FORMAT csv, HEADER, COMPRESSION gzip)`);
        }
        const seconds = (performance.now() - t0) / 1000;
        if (check) check(await this.rowCheck(con));
        return seconds;
      });
    } finally {
      rmSync(this.out, { recursive: true, force: true });
    }
  }

  private path(f: Copied, format: 'parquet' | 'csv.gz'): string {
    return join(this.out, `${f.name}.${format}`);
  }

  /** A line saying whether the files DuckDB wrote hold as many rows as the render's. */
  private async rowCheck(con: DuckDBConnection): Promise<string> {
    const wrong: string[] = [];
    let rows = 0;
    for (const f of this.files) {
      const count = async (from: string) => Number((await con.runAndReadAll(`SELECT count(*) FROM ${from}`)).getRows()[0]?.[0]);
      const parquet = await count(`read_parquet(${literal(this.path(f, 'parquet'))})`);
      const csv = await count(`read_csv(${literal(this.path(f, 'csv.gz'))}, header = true)`);
      if (parquet !== f.rows || csv !== f.rows) wrong.push(`${f.name}: render ${f.rows}, DuckDB Parquet ${parquet}, CSV ${csv}`);
      rows += f.rows;
    }
    const files = this.files.length * 2;
    return wrong.length === 0
      ? `DuckDB's COPY wrote ${files} files with the render's row counts (${rows} rows in each format)`
      : `DuckDB's COPY wrote ${files} files, ${wrong.length} pairs with other row counts than the render's: ${wrong.join('; ')}`;
  }
}

/** Runs `work` on a connection to the DuckDB database at `path`, closed after. */
async function withDuckdb<T>(path: string, work: (con: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(path);
  const con = await instance.connect();
  try {
    return await work(con);
  } finally {
    con.closeSync();
    instance.closeSync();
  }
}
