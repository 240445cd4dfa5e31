/**
 * The shape of src/ at run time: no import cycle, and layers that import downward only (the
 * domain knows nothing of the store, providers or HTTP; the store knows the domain; handlers
 * know both). Type-only imports load nothing and are not counted.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { cyclesOf, importGraph } from './imports.js';

const graph = importGraph(join(ROOT, 'src'));

/** Each top folder (or file) of src/ by layer: a module imports only from its own layer or lower ones. */
const LAYERS: Record<string, number> = {
  domain: 0,
  'settings.ts': 1,
  store: 1,
  providers: 1,
  forecast: 2,
  ingest: 2,
  served: 2,
  api: 3,
  mcp: 4,
  render: 4,
  site: 4,
  server: 5,
  smoke: 5,
};
const layerOf = (module: string): number => {
  const layer = LAYERS[module.split('/')[0]!];
  if (layer === undefined) throw new Error(`src/${module} is in no layer: add its folder to LAYERS`);
  return layer;
};

describe('the import graph of src/', () => {
  it('finds a cycle where there is one, and none in a tree', () => {
    expect(
      cyclesOf(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c', 'a']]);
    expect(
      cyclesOf(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads every module of src/', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('api/routes.ts')).toContain('api/season.ts');
  });

  it('has no cycle at run time', () => {
    expect(cyclesOf(graph).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('imports downward only', () => {
    const upward = [...graph].flatMap(([from, targets]) =>
      targets.filter((to) => layerOf(to) > layerOf(from)).map((to) => `${from} -> ${to}`),
    );
    expect(upward).toEqual([]);
  });
});
