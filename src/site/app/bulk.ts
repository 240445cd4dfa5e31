/** The footer's table of bulk files, from their manifest: the seasons file, then a row per month, Parquet and CSV links per kind. */
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

/** The seasons file's row: one file for every year, across the kinds' columns. */
function seasonsRow(files: Manifest['files']): HTMLTableRowElement[] {
  const seasons = files.filter((f) => f.kind === 'seasons');
  if (seasons.length === 0) return [];
  const tr = document.createElement('tr');
  const th = document.createElement('th');
  th.scope = 'row';
  th.textContent = 'Seasons, every year';
  const td = document.createElement('td');
  td.colSpan = KINDS.length;
  links(td, seasons);
  tr.append(th, td);
  return [tr];
}

/** Fills #bulk-files, the seasons file then the newest month first; the manifest link stays when it cannot be read. */
export async function listBulkFiles(): Promise<void> {
  const body = document.querySelector('#bulk-files');
  if (!body) return;
  const { files } = await getJson<Manifest>('/data/bulk/index.json');
  const months = [...new Set(files.flatMap((f) => (f.month === null ? [] : [f.month])))].sort().reverse();
  body.replaceChildren(
    ...seasonsRow(files),
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
