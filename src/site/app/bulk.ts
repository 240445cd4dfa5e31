/** The footer's table of bulk files, from their manifest: the files of every year, then a row per month, Parquet and CSV links per kind. */
import { getJson } from './api.js';

interface Manifest {
  files: Array<{ path: string; kind: string; format: string; month: string | null; bytes: number }>;
}

const KINDS = ['pollen-hourly', 'pollen-daily', 'weather-daily'];
const size = (bytes: number) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} kB`);

/** Links to each format of some files, with their sizes. */
function links(cell: HTMLElement, files: Manifest['files']): void {
  for (const f of files) {
    const a = document.createElement('a');
    a.href = f.path;
    a.textContent = `${f.format === 'parquet' ? 'Parquet' : 'CSV'} (${size(f.bytes)})`;
    if (cell.childNodes.length > 0) cell.append(' · ');
    cell.append(a);
  }
}

/** The files of every year, each a row across the kinds' columns: the seasons, and the forecasts paired with what was observed. */
const WHOLE: ReadonlyArray<[kind: string, label: string]> = [
  ['seasons', 'Seasons, every year'],
  ['forecast-pairs', 'Forecasts and what was observed'],
];

function wholeRows(files: Manifest['files']): HTMLTableRowElement[] {
  return WHOLE.flatMap(([kind, label]) => {
    const these = files.filter((f) => f.kind === kind);
    if (these.length === 0) return [];
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = label;
    const td = document.createElement('td');
    td.colSpan = KINDS.length;
    links(td, these);
    tr.append(th, td);
    return [tr];
  });
}

/** Fills #bulk-files, the files of every year then the newest month first; the manifest link stays when it cannot be read. */
export async function listBulkFiles(): Promise<void> {
  const body = document.querySelector('#bulk-files');
  if (!body) return;
  const { files } = await getJson<Manifest>('/data/bulk/index.json');
  const months = [...new Set(files.flatMap((f) => (f.month === null ? [] : [f.month])))].sort().reverse();
  body.replaceChildren(
    ...wholeRows(files),
    ...months.map((month) => {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = month;
      tr.append(th);
      for (const kind of KINDS) {
        const td = document.createElement('td');
        links(
          td,
          files.filter((x) => x.month === month && x.kind === kind),
        );
        tr.append(td);
      }
      return tr;
    }),
  );
}
