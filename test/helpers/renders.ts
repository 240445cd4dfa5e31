/** Rendering a store file and comparing two renders' trees, as the render cache's tests do. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { listFiles, type RenderOptions, type RenderSummary, render } from '../../src/render/render.js';
import { openStore } from '../../src/store/store.js';

/** Renders the store at `db` into `publish`, returning its summary. */
export async function renderTo(db: string, publish: string, options: RenderOptions): Promise<RenderSummary> {
  const store = openStore(db, { readonly: true });
  try {
    return await render(store, publish, options);
  } finally {
    store.close();
  }
}

/** The same files, byte for byte, in both folders. */
export function expectSameTree(a: string, b: string): void {
  const files = listFiles(a).sort();
  expect(listFiles(b).sort()).toEqual(files);
  for (const f of files) expect(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), f).toBe(true);
}
