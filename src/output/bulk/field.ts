/** A bulk file's column: its name, type, unit and meaning, and how its value is taken from a row. */
import type { BulkColumn, BulkType } from '../../deploy-data/bulk-index.js';

/** A cell: a text, a number (a DATE's day number, a TIMESTAMP's milliseconds since the epoch), a flag, or null. */
export type Value = string | number | boolean | null;
/** A column and how to take its value from a row of what the file is made from. */
export interface Field<R = Record<string, unknown>> extends BulkColumn {
  value: (row: R) => Value;
}

/** A column whose value `value` takes from a row. */
export const column = <R>(
  name: string,
  type: BulkType,
  description: string,
  value: (row: R) => Value,
  unit?: string,
  nullable = true,
): Field<R> => ({ name, type, nullable, description, ...(unit ? { unit } : {}), value });

/** A column whose value is the row's field of the same name. */
export const field = (name: string, type: BulkType, description: string, unit?: string, nullable = true): Field =>
  column(name, type, description, (row: Record<string, unknown>) => (row[name] as Value | undefined) ?? null, unit, nullable);
