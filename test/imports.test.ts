/**
 * No module under src/ loads itself again through its imports: a run-time import cycle leaves one
 * of its modules half-evaluated while another runs (a class undefined where it is used). Type-only
 * imports (`import type`, `export type`) are erased and do not count; with verbatimModuleSyntax an
 * `import { type A }` is kept as an import, so it counts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', 'src');
const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.[^'"]+)['"]/gm;

/** Each module under `dir` with the modules under it that it loads at run time. */
function runtimeImports(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || !/\.m?ts$/.test(e.name) || e.name.endsWith('.d.ts')) continue;
    const file = join(e.parentPath, e.name);
    const text = readFileSync(file, 'utf8');
    const deps = [...text.matchAll(IMPORT)].filter((m) => !m[1]).map((m) => resolve(dirname(file), m[2]!).replace(/\.js$/, '.ts'));
    graph.set(file, deps);
  }
  return graph;
}

/** The cycles of a graph: its strongly connected components of more than one module, or one that imports itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.map((f) => relative(SRC, f)).sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('imports', () => {
  it('finds a cycle where there is one', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', ['/a.ts']],
    ]);
    expect(cycles(graph)).toHaveLength(1);
  });

  it('has no run-time import cycle under src/', () => {
    expect(cycles(runtimeImports(SRC))).toEqual([]);
  });
});
