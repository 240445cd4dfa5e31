/** /api/pollen-range as CSV: the JSON answer's rows, a line each (species left out), every line naming its provider. */
import type * as D from '../../domain/schemas.js';
import type { Fields } from '../contract/answer.js';
import { csvCell } from '../contract/csv.js';
import { type Format, type RowText, rowsText, TEXT } from '../contract/format.js';

type RangeAnswer = { rows: D.PollenRangeRow[]; provider?: string | null };

export const CSV_COLUMNS = [
  'city',
  'periodStart',
  'tree',
  'grass',
  'weed',
  'total',
  'timezone',
  'risk_tree',
  'risk_grass',
  'risk_weed',
  'provider',
] as const;

// A row of one provider's answer names it as the answer does; a row of a mixed one, its own ("ambee+sample" for a local day of both).
const cell = (r: D.PollenRangeRow, head: Fields<RangeAnswer>, c: (typeof CSV_COLUMNS)[number]) =>
  csvCell(c === 'provider' ? (r.providers?.join('+') ?? head.provider) : r[c]);

const CONTENT_TYPE = 'text/csv; charset=utf-8';

const rows: RowText<RangeAnswer> = {
  head: `${CSV_COLUMNS.join(',')}\n`,
  line: (r, head) => `${CSV_COLUMNS.map((c) => cell(r, head, c)).join(',')}\n`,
};

export const rangeCsv: Format<RangeAnswer> = {
  contentType: CONTENT_TYPE,
  schema: TEXT,
  rows,
  render: (answer) => ({ text: rowsText(answer, rows), contentType: CONTENT_TYPE }),
};
