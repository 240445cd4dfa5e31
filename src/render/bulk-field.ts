/** A bulk file's column: its name, type, unit and meaning, and how its value is taken from a row. */
import type { BulkColumn, BulkType } from '../served/bulk-index.js';

/** A cell: a text, a number, an instant, or null. */
export type Value = string | number | boolean | Date | null;
/** A column and how to take its value from a row. */
export interface Field extends BulkColumn {
  value: (row: Record<string, unknown>) => Value;
}

/** A column whose value is the row's field of the same name. */
export const field = (name: string, type: BulkType, description: string, unit?: string, nullable = true): Field => ({
  name,
  type,
  nullable,
  description,
  ...(unit ? { unit } : {}),
  value: (row) => (row[name] as Value | undefined) ?? null,
});
