/**
 * The shape of the code: no import cycle, type-only imports counted (a module that names
 * another's types depends on it); tiers that import downward only, and inside a tier in one
 * direction; src/api's layers; no endpoint reaching another. src/, build/ and functions/ are read.
 * Each rule is first shown to fail on a graph made by hand.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { cyclesOf, importGraph } from './imports.js';
import { endpointToEndpoint, upward, upwardInApi, vagueNames } from './rules.js';

const graph = importGraph(ROOT, ['src', 'build', 'functions']);
const endpoints = new Set((graph.get('src/api/routes.ts') ?? []).filter((m) => m.startsWith('src/api/endpoints/')));

describe('the rules, on graphs made by hand', () => {
  it('finds a cycle where there is one, and none in a tree', () => {
    const cycle = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    expect(cyclesOf(cycle)).toEqual([['a', 'b', 'c', 'a']]);
    const tree = new Map([
      ['a', ['b', 'c']],
      ['b', ['c']],
      ['c', []],
    ]);
    expect(cyclesOf(tree)).toEqual([]);
  });

  it('finds an import up a tier, and one across a tier against its order', () => {
    expect(upward(new Map([['src/domain/dates.ts', ['src/store/store.ts']]]))).toEqual(['src/domain/dates.ts -> src/store/store.ts']);
    expect(upward(new Map([['src/store/store.ts', ['src/providers/registry.ts']]]))).toEqual([
      'src/store/store.ts -> src/providers/registry.ts',
    ]);
    expect(upward(new Map([['src/render/render.ts', ['src/site/build.ts', 'src/domain/dates.ts']]]))).toEqual([]);
    expect(upward(new Map([['src/api/routes.ts', ['build/cli.ts']]]))).toEqual(['src/api/routes.ts -> build/cli.ts']);
  });

  it('finds an import up the layers of src/api', () => {
    expect(upwardInApi(new Map([['src/api/contract/route.ts', ['src/api/endpoints/pollen.ts']]]))).toEqual([
      'src/api/contract/route.ts -> src/api/endpoints/pollen.ts',
    ]);
    expect(upwardInApi(new Map([['src/api/endpoints/pollen.ts', ['src/api/http/cdn.ts']]]))).toEqual([
      'src/api/endpoints/pollen.ts -> src/api/http/cdn.ts',
    ]);
    expect(upwardInApi(new Map([['src/api/http/respond.ts', ['src/api/routes.ts', 'src/api/contract/error.ts']]]))).toEqual([]);
  });

  it('finds an endpoint reaching another, directly or through a helper', () => {
    const made = new Map([
      ['src/api/endpoints/alerts.ts', ['src/api/endpoints/forecast-of.ts']],
      ['src/api/endpoints/forecast-of.ts', ['src/api/endpoints/forecast.ts']],
      ['src/api/endpoints/forecast.ts', ['src/api/endpoints/forecast-of.ts']],
    ]);
    const both = new Set(['src/api/endpoints/alerts.ts', 'src/api/endpoints/forecast.ts']);
    expect(endpointToEndpoint(made, both)).toEqual(['src/api/endpoints/alerts.ts -> src/api/endpoints/forecast.ts']);
    expect(endpointToEndpoint(new Map([['src/api/endpoints/alerts.ts', ['src/api/endpoints/forecast-of.ts']]]), both)).toEqual([]);
  });

  it('finds a base name held three times, or twice in one folder', () => {
    expect(vagueNames(['src/providers/http.ts', 'src/mcp/http.ts', 'src/api/http/http.ts'])).toEqual([
      'src/providers/http.ts, src/mcp/http.ts, src/api/http/http.ts',
    ]);
    expect(vagueNames(['src/domain/status.ts', 'src/domain/seasons/status.ts'])).toEqual([
      'src/domain/status.ts, src/domain/seasons/status.ts',
    ]);
    expect(
      vagueNames(['src/api/endpoints/weather.ts', 'src/domain/weather.ts', 'src/a/index.ts', 'src/b/index.ts', 'src/c/index.ts']),
    ).toEqual([]);
  });

  it('has the linter refuse a function of more than 60 lines, and take one of 50', () => {
    // The project's linter settings, in a folder of their own (outside git, so nothing is ignored).
    const dir = tempDir();
    const config = readFileSync(join(ROOT, 'biome.jsonc'), 'utf8')
      .replace(/"vcs": \{[^}]*\}/, '"vcs": { "enabled": false }')
      .replace(/"\$schema": "[^"]*",/, '');
    writeFileSync(join(dir, 'biome.jsonc'), config);
    mkdirSync(join(dir, 'src'));
    const lint = (name: string, text: string) => {
      writeFileSync(join(dir, 'src', name), text);
      return spawnSync(join(ROOT, 'node_modules/.bin/biome'), ['lint', `src/${name}`], { cwd: dir, encoding: 'utf8' });
    };
    const body = (lines: number) => Array.from({ length: lines }, (_, i) => `  total += ${i};`).join('\n');
    const fn = (name: string, lines: number) =>
      `export function ${name}(): number {\n  let total = 0;\n${body(lines)}\n  return total;\n}\n`;
    const long = lint('long.ts', fn('long', 61));
    expect(long.status).not.toBe(0);
    expect(`${long.stdout}${long.stderr}`).toContain('lint/complexity/noExcessiveLinesPerFunction');
    expect(lint('short.ts', fn('short', 46)).status).toBe(0);
  }, 60_000);
});

describe('the code', () => {
  it('is read whole: src/, build/ and functions/, type-only imports included', () => {
    expect(graph.size).toBeGreaterThan(150);
    expect(graph.get('src/api/routes.ts')).toContain('src/api/endpoints/season.ts');
    expect([...graph.keys()].some((m) => m.startsWith('functions/'))).toBe(true);
    expect([...graph.keys()].some((m) => m.startsWith('build/'))).toBe(true);
    // `import type { ApiContext }` counts.
    expect(graph.get('src/api/contract/route.ts')).toContain('src/api/contract/context.ts');
    expect(endpoints.size).toBe(15);
  });

  it('has no cycle', () => {
    expect(cyclesOf(graph).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('imports downward only, and across a tier in its order', () => {
    expect(upward(graph)).toEqual([]);
  });

  it('keeps the layers of src/api', () => {
    expect(upwardInApi(graph)).toEqual([]);
  });

  it('has no endpoint reaching another', () => {
    expect(endpointToEndpoint(graph, endpoints)).toEqual([]);
  });

  it('names its files so that no base name is vague', () => {
    expect(vagueNames([...graph.keys()].filter((m) => m.startsWith('src/')))).toEqual([]);
  });
});
