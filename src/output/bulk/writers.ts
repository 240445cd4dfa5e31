/**
 * The bulk files' writers: Parquet (hyparquet-writer) a row group at a time, and its gzip CSV
 * twin, both from the same batch of column values, so a month is never held whole.
 */
import { once } from 'node:events';
import { createGzip, gzipSync } from 'node:zlib';
import type { SchemaElement } from 'hyparquet';
import { ByteWriter, type ColumnSource, ParquetWriter } from 'hyparquet-writer';
import { csvCell } from '../../api/contract/csv.js';
import type { BulkColumn, BulkType } from '../../deploy-data/bulk-index.js';
import { keptResults } from '../../domain/bounded-memo.js';
import { dayString, isoTime } from '../../domain/dates.js';
import { rowProvenanceOf } from '../../domain/provenance.js';
import type { Field, Value } from './field.js';

/**
 * Snappy: every Parquet reader decodes it without an extra codec (hyparquet, the reader of
 * browsers, decodes gzip only with hyparquet-compressors). On these files gzip is within 2% of its
 * size and writes faster (`npm run bench`, B11): the readers decide.
 */
export const CODEC: BulkCodec = 'SNAPPY';

const PARQUET_TYPE: Record<BulkType, Omit<SchemaElement, 'name' | 'repetition_type'>> = {
  STRING: { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } },
  // UTC instants: DuckDB reads them as TIMESTAMP WITH TIME ZONE, pandas as datetime64[ms, UTC].
  TIMESTAMP: {
    type: 'INT64',
    converted_type: 'TIMESTAMP_MILLIS',
    logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
  },
  DATE: { type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } },
  BOOLEAN: { type: 'BOOLEAN' },
  DOUBLE: { type: 'DOUBLE' },
  INT32: { type: 'INT32' },
};

/** Codecs the bench compares (`npm run bench`, B11); the files use CODEC. */
export type BulkCodec = 'SNAPPY' | 'GZIP' | 'UNCOMPRESSED';
const COMPRESSORS = { GZIP: (input: Uint8Array) => new Uint8Array(gzipSync(input)) };

const schemaOf = (fields: readonly BulkColumn[]): SchemaElement[] => [
  { name: 'root', num_children: fields.length },
  ...fields.map((f): SchemaElement => ({ name: f.name, ...PARQUET_TYPE[f.type], repetition_type: f.nullable ? 'OPTIONAL' : 'REQUIRED' })),
];

/** A row group's values, column by column, as the sinks write them. */
export interface RowGroup {
  readonly columns: readonly Value[][];
  readonly rows: number;
}

/**
 * A row group's values, column by column: each field's value taken once from each row, for the
 * Parquet file and its CSV twin alike.
 */
export class Batch<R> implements RowGroup {
  readonly columns: Value[][];
  rows = 0;

  constructor(private readonly fields: readonly Field<R>[]) {
    this.columns = fields.map(() => []);
  }

  add(row: R): void {
    for (let c = 0; c < this.fields.length; c++) this.columns[c]!.push(this.fields[c]!.value(row));
    this.rows++;
  }

  /** Adds another group's rows (of the same fields), after these. */
  append(group: RowGroup): void {
    for (let c = 0; c < this.fields.length; c++) {
      const [to, from] = [this.columns[c]!, group.columns[c]!];
      for (let r = 0; r < group.rows; r++) to.push(from[r] as Value);
    }
    this.rows += group.rows;
  }
}

/** One row group's columns: the writer takes a DATE's day number and a TIMESTAMP's milliseconds as they are. */
function columnsOf(fields: readonly BulkColumn[], columns: readonly Value[][]): ColumnSource[] {
  return fields.map((f, c) => {
    // Statistics on the sort keys only: they let readers skip row groups, and the footer stays small.
    const keyed = f.name === 'city' || f.type === 'TIMESTAMP' || f.type === 'DATE';
    return {
      name: f.name,
      data: columns[c]!,
      statistics: keyed,
      offsetIndex: false, // a page per column chunk: an offset index would only add bytes
      ...(f.type === 'STRING'
        ? { encoding: 'RLE_DICTIONARY' as const }
        : f.type === 'TIMESTAMP'
          ? { encoding: 'DELTA_BINARY_PACKED' as const }
          : {}),
    };
  });
}

/**
 * A Parquet file written a row group at a time, so a month's rows are never held whole. A file
 * whose rows name their provider says, in its key-value metadata, which providers its values come
 * from (`pollen-api:providers`, a JSON list) and whether any is the sample's (`pollen-api:simulated`),
 * so that a file copied away from the manifest still says so.
 */
export class ParquetSink {
  private readonly out = new ByteWriter();
  private readonly writer: ParquetWriter;
  private readonly providerColumn: number;
  /** The providers of the rows written, in the order first met; undefined where rows do not name one. */
  readonly providers: Set<string> | undefined;
  rows = 0;

  constructor(
    private readonly fields: readonly BulkColumn[],
    codec: BulkCodec = CODEC,
  ) {
    this.providerColumn = fields.findIndex((f) => f.name === 'provider');
    this.providers = this.providerColumn < 0 ? undefined : new Set();
    this.writer = new ParquetWriter({
      writer: this.out,
      schema: schemaOf(fields),
      codec,
      compressors: COMPRESSORS,
      statisticsTruncateLength: Infinity,
      createdBy: 'pollen-api (hyparquet-writer)',
    });
  }

  group(batch: RowGroup): void {
    if (batch.rows === 0) return;
    if (this.providers) for (const p of batch.columns[this.providerColumn]!) if (typeof p === 'string') this.providers.add(p);
    // Synchronous into a ByteWriter: it returns a promise only for an asynchronous writer.
    if (this.writer.write({ columnData: columnsOf(this.fields, batch.columns), rowGroupSize: batch.rows }) !== undefined)
      throw new Error('the Parquet writer went asynchronous');
    this.rows += batch.rows;
  }

  finish(): Uint8Array {
    if (this.providers) {
      const { providers, simulated } = rowProvenanceOf([...this.providers]);
      // The footer is written by finish: its key-value metadata is read there.
      this.writer.kvMetadata = [
        { key: 'pollen-api:providers', value: JSON.stringify(providers) },
        { key: 'pollen-api:simulated', value: String(simulated === true) },
      ];
    }
    if (this.writer.finish() !== undefined) throw new Error('the Parquet writer went asynchronous');
    return new Uint8Array(this.out.getBuffer());
  }
}

/** A month's rows (cities' groups) as the render groups them, a row group per `perGroup` cities with rows: for the bench. */
export function rowGroupsOf<R>(fields: readonly Field<R>[], groups: ReadonlyArray<ReadonlyArray<R>>, perGroup: number): Batch<R>[] {
  const cities = groups.filter((g) => g.length > 0);
  const batches: Batch<R>[] = [];
  for (let i = 0; i < cities.length; i += perGroup) {
    const batch = new Batch(fields);
    for (const row of cities.slice(i, i + perGroup).flat()) batch.add(row);
    batches.push(batch);
  }
  return batches;
}

/** The Parquet bytes of a month's rows (cities' groups), a row group per `perGroup` cities with rows: for the bench. */
export function parquetOf<R>(
  fields: readonly Field<R>[],
  groups: ReadonlyArray<ReadonlyArray<R>>,
  perGroup: number,
  codec: BulkCodec = CODEC,
): Uint8Array {
  const sink = new ParquetSink(fields, codec);
  for (const batch of rowGroupsOf(fields, groups, perGroup)) sink.group(batch);
  return sink.finish();
}

/** Distinct texts a column's formatter keeps: dates, hours, labels and slugs repeat; a column of other texts starts over. */
const KEPT_TEXTS = 4096;

/**
 * A column's CSV fields: times as the API writes them, numbers as they print (never quoted),
 * texts as every CSV answer writes them. Times, texts and decimals repeat down a column (a
 * month's hours in every city, a slug in every row of its city, a score or a daily mean), so
 * each is made once.
 */
function csvFormatter(type: BulkType): (value: Value) => string {
  if (type === 'INT32' || type === 'BOOLEAN') return (value) => (value === null ? '' : String(value));
  const text = keptResults(
    type === 'TIMESTAMP'
      ? (value: Value) => isoTime(value as number)
      : type === 'DATE'
        ? (value: Value) => dayString(value as number)
        : type === 'DOUBLE'
          ? String
          : csvCell,
    KEPT_TEXTS,
  );
  return (value) => (value === null ? '' : text(value));
}

/**
 * A gzip CSV file written a row group at a time (a header, then the rows). zlib compresses in
 * libuv's threads while the next group's rows are made: the text is handed over without waiting
 * for it to drain (a month's CSV text is a few MB at most), and the file is complete once it ends.
 */
export class CsvSink {
  private readonly gzip = createGzip({ level: 6 });
  private readonly chunks: Buffer[] = [];
  private readonly cells: Array<(value: Value) => string>;

  constructor(fields: readonly BulkColumn[]) {
    this.cells = fields.map((f) => csvFormatter(f.type));
    this.gzip.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.gzip.write(`${fields.map((f) => f.name).join(',')}\n`);
  }

  /**
   * Writes a row group's lines, resolved once the compressor has taken them. zlib compresses on
   * libuv's threads and hands its output back through the event loop: lines written in a loop that
   * never yields wait whole, as text, until the file ends (the forecast-pairs file's 90 MB at 200
   * cities, a bulk month's 20 MB). The bytes are the same however the text is cut.
   */
  async rows(batch: RowGroup): Promise<void> {
    if (batch.rows === 0) return;
    const { columns } = batch;
    const { cells } = this;
    // Joined, not added up: a text made by `+=` is a tree of pieces that zlib's write flattens again.
    const lines = new Array<string>(batch.rows + 1);
    const line = new Array<string>(columns.length);
    for (let r = 0; r < batch.rows; r++) {
      for (let c = 0; c < columns.length; c++) line[c] = cells[c]!(columns[c]![r] as Value);
      lines[r] = line.join(',');
    }
    lines[batch.rows] = '';
    if (!this.gzip.write(lines.join('\n'))) await once(this.gzip, 'drain');
  }

  async finish(): Promise<Uint8Array> {
    const ended = once(this.gzip, 'end');
    this.gzip.end();
    await ended;
    return Buffer.concat(this.chunks);
  }
}
