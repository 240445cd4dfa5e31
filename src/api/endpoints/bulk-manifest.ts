/**
 * /data/bulk/index.json: the bulk files' manifest. The render writes it as a file beside the files
 * it lists; this route documents it, and answers it where it was left beside the store (MCP's
 * get_bulk_files, whose function carries no publish folder).
 */
import * as z from 'zod';
import * as D from '../../domain/schemas.js';
import { ErrorBody, errorKind } from '../contract/error.js';
import { route } from '../contract/route.js';
import { DATA_PREFIX } from '../contract/static-forms.js';

const NotRendered = errorKind('NotRenderedError', 'NOT_RENDERED', 'No render has written the bulk files yet.');

export const bulkManifestRoute = route({
  path: '/data/bulk/index.json',
  params: {},
  response: D.BulkManifest,
  doc: {
    operationId: 'getBulkManifest',
    summary: 'Bulk files of the whole history',
    description:
      "A static file written by each render: the served history as monthly files under /data/bulk/ (pollen-hourly, pollen-daily and weather-daily, each as Parquet and as gzip CSV), each with its path, month, rows, bytes and SHA-256, and each kind's columns with type, unit and meaning (the data dictionary). The files are static too, and answer byte ranges (Range: bytes=...) for Parquet readers over HTTP. MCP: get_bulk_files.",
    ok: 'OK.',
    notFound: {
      description:
        'Before the first render (NOT_RENDERED); a file under /data/bulk/ that is not listed is answered by the fallback function (NO_ENDPOINT).',
      schema: z.union([NotRendered.schema, ErrorBody]),
    },
    file: true,
  },
  llms: "the whole served history as monthly files (pollen-hourly, pollen-daily, weather-daily; Parquet and gzip CSV), with each file's path, rows, bytes, SHA-256 and a data dictionary; use these, not hundreds of pollen-range calls, for long windows (DuckDB, for a month YYYY-MM of the manifest: SELECT * FROM 'https://<site>/data/bulk/pollen-hourly-YYYY-MM.parquet')",
  tool: {
    name: 'get_bulk_files',
    title: 'Bulk files of the whole history',
    description:
      "The served history as monthly files for analysts: pollen-hourly, pollen-daily and weather-daily, each month as Parquet (typed columns, rows by city and time in row groups of four cities' hours or a hundred cities' days, so that a reader of one city fetches the footer and one group; DuckDB, pandas, Polars and Arrow read it, over HTTP with range requests too) and as gzip CSV. Gives each file's path on this deployment, month, rows, bytes and SHA-256, and every column's type, unit and meaning. Prefer these to many get_pollen_range calls for long windows.",
    note: "the bulk files' manifest",
  },
  // A file of the render, which the bulk step writes beside the files it lists.
  forms: [{ file: `${DATA_PREFIX}/bulk/index.json`, unit: 'once', enumerate: () => [] }],
  handle: (_query, ctx) => {
    const manifest = ctx.bulkIndex;
    if (!manifest) throw NotRendered.error(404, 'No bulk files: this deployment has not been rendered yet.');
    return { body: manifest };
  },
});
