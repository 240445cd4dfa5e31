/** The footer's table of bulk files, from their manifest: a row per month, Parquet and CSV links per kind. */
import { getJson } from './api.js';

interface Manifest {
  files: Array<{ path: string; kind: string; format: string; month: string; bytes: number }>;
}

const KINDS = ['pollen-hourly', 'pollen-daily', 'weather-daily'];
const size = (bytes: number) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} kB`);

/** Fills #bulk-files, newest month first; the manifest link stays when it cannot be read. */
export async function listBulkFiles(): Promise<void> {
  const body = document.querySelector('#bulk-files');
  if (!body) return;
  const { files } = await getJson<Manifest>('/data/bulk/index.json');
  const months = [...new Set(files.map((f) => f.month))].sort().reverse();
  body.replaceChildren(
    ...months.map((month) => {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = month;
      tr.append(th);
      for (const kind of KINDS) {
        const td = document.createElement('td');
        for (const f of files.filter((x) => x.month === month && x.kind === kind)) {
          const a = document.createElement('a');
          a.href = f.path;
          a.textContent = `${f.format === 'parquet' ? 'Parquet' : 'CSV'} (${size(f.bytes)})`;
          if (td.childNodes.length > 0) td.append(' · ');
          td.append(a);
        }
        tr.append(td);
      }
      return tr;
    }),
  );
}
