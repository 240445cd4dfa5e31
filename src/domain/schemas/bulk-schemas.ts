/** The bulk files' manifest: each kind's columns and each month's files. */
import * as z from 'zod';
import { named } from '../schema-names.js';
import { Day } from './common-schemas.js';

export const BulkColumn = z.object({
  name: z.string(),
  type: z.enum(['STRING', 'TIMESTAMP', 'DATE', 'DOUBLE', 'INT32', 'BOOLEAN']),
  nullable: z.boolean(),
  unit: z.string().optional(),
  description: z.string(),
  provider: z
    .object({ category: z.string(), name: z.string().optional() })
    .optional()
    .describe("A species column: the provider's category, and the allergen's name where the category has several."),
});
export type BulkColumn = z.infer<typeof BulkColumn>;

export const BulkKind = z.enum(['pollen-hourly', 'pollen-daily', 'weather-daily', 'seasons', 'forecast-pairs']);
export type BulkKind = z.infer<typeof BulkKind>;

export const BulkManifest = named(
  'BulkManifest',
  'The bulk files (/data/bulk/index.json): each month of the served history as Parquet and gzip CSV, and the data dictionary of their columns.',
  z.object({
    from: Day.nullable(),
    to: Day.nullable(),
    kinds: z
      .object(
        Object.fromEntries(BulkKind.options.map((k) => [k, z.object({ description: z.string(), columns: z.array(BulkColumn) })])) as Record<
          z.infer<typeof BulkKind>,
          z.ZodObject<{ description: z.ZodString; columns: z.ZodArray<typeof BulkColumn> }>
        >,
      )
      .describe("Each kind's columns (the same in every month): the data dictionary."),
    files: z.array(
      z.object({
        path: z.string().describe('URL path on this deployment, such as /data/bulk/pollen-hourly-2025-04.parquet'),
        kind: BulkKind,
        format: z.enum(['parquet', 'csv.gz']),
        month: z
          .string()
          .regex(/^\d{4}-\d{2}$/)
          .nullable()
          .describe('The month the file holds; null for the seasons and forecast-pairs files, which hold every year.'),
        rows: z.number().int().min(0),
        bytes: z.number().int().min(0),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        inputs_sha256: z
          .string()
          .regex(/^[0-9a-f]{64}$/)
          .describe(
            "SHA-256 of what the file is made from (the writer, the columns, and the month's hours, day values and weather as stored, or for the seasons file every day value): a render reuses a month's files while it is unchanged.",
          ),
        columns: z.array(z.string()),
        providers: z
          .array(z.string())
          .optional()
          .describe(
            "The providers of the file's values, as its rows' provider column names them (also in the Parquet file's key-value metadata, pollen-api:providers); absent for files without that column.",
          ),
        simulated: z
          .literal(true)
          .optional()
          .describe("Present when any of the file's values are the sample provider's: invented for demonstration, never measured."),
      }),
    ),
  }),
);
export type BulkManifest = z.infer<typeof BulkManifest>;
