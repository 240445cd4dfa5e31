/** A month's bulk files as a task writes them: taken from the render cache, or written anew and recorded for it. */
import type { BulkFile } from '../../deploy-data/bulk-index.js';
import { bulkColumns } from '../../output/bulk/columns.js';
import { bulkSlots } from '../../output/bulk/months.js';
import type { FileRecord } from '../../output/file-records.js';
import type { FileWriter } from '../../output/file-writer.js';
import type { Store } from '../../store/store.js';
import type { RenderCache } from '../cache/render-cache.js';

/**
 * A month's bulk files (or with `month` null the seasons file) under the writer's folder: the
 * render cache's when made from the same inputs, else written anew by `write`.
 */
export async function bulkFiles(
  store: Store,
  { month, inputs }: { month: string | null; inputs: string },
  write: (put: (file: string, body: Uint8Array) => void) => Promise<BulkFile[]>,
  cache: RenderCache | undefined,
  out: FileWriter,
): Promise<{ files: BulkFile[]; reused: boolean; records: Map<string, FileRecord> }> {
  const columns = Object.fromEntries(Object.entries(bulkColumns(store)).map(([kind, fields]) => [kind, fields.map((f) => f.name)]));
  const reused = cache?.bulk(bulkSlots(month), month, inputs, columns, out.folder);
  if (reused) {
    for (const f of reused.files) out.count(f.bytes);
    return { ...reused, reused: true };
  }
  const records = new Map<string, FileRecord>();
  const files = await out.recording(records, () => write((file, body) => out.put(file, body)));
  return { files, reused: false, records };
}
