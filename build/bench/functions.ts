/**
 * B6 (cold start of each function: import to first response, in a fresh node process, of the
 * bundle esbuild makes as Netlify does) and B8's bundle half (each function zipped with
 * better-sqlite3's files and what netlify.toml's `included_files` gives it: the served store, or
 * the site file).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { parse } from 'smol-toml';
import { deflateRawSync } from 'node:zlib';
import { build } from 'esbuild';
import { mb, ms, type Measure } from './measure.js';

const REQUESTS: Record<string, string> = {
  fallback: '/data/pollen/by-date/1999-01-01.json',
  'pollen-range': '/api/pollen-range?from=2024-03-01&to=2024-03-02&city=tulsa',
  forecast: '/api/forecast?city=tulsa',
  mcp: '/mcp',
  health: '/api/health',
};
/** 503 is health's answer for data older than a day and a half, as the fixed workload is. */
const ANSWERS: Record<string, string[]> = { health: ['200', '503'] };

/** Files under a folder, recursively. */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Bytes of a zip holding these files: each entry deflated, plus local and central headers. */
function zippedSize(paths: readonly string[], root: string): { zipped: number; unzipped: number } {
  let zipped = 22;
  let unzipped = 0;
  for (const p of paths) {
    const data = readFileSync(p);
    const name = relative(root, p).length;
    zipped += Math.min(deflateRawSync(data, { level: 6 }).length, data.length) + 30 + 46 + 2 * name;
    unzipped += data.length;
  }
  return { zipped, unzipped };
}

/** Each function's `included_files`, as files of the bench's store folder (`snapshots/serve.db` is `<dir of db>/serve.db`). */
function includedFiles(root: string, db: string): Record<string, string[]> {
  const toml = parse(readFileSync(join(root, 'netlify.toml'), 'utf8')) as { functions?: Record<string, { included_files?: string[] }> };
  return Object.fromEntries(Object.keys(REQUESTS).map((name) => [name, (toml.functions?.[name]?.included_files ?? []).map((f) => join(dirname(db), basename(f)))]));
}

export async function functionBenchmarks(root: string, db: string, forecastDb: string): Promise<Measure[]> {
  const bundles = join(root, 'bench-results', 'bundles'); // inside the project, so node_modules resolve
  mkdirSync(bundles, { recursive: true });
  const native = [
    ...files(join(root, 'node_modules/better-sqlite3/lib')),
    join(root, 'node_modules/better-sqlite3/package.json'),
    join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'),
    ...files(join(root, 'node_modules/bindings')),
    ...files(join(root, 'node_modules/file-uri-to-path')),
  ];
  const measures: Measure[] = [];
  const included = includedFiles(root, db);
  for (const name of Object.keys(REQUESTS)) {
    const bundle = join(bundles, `${name}.mjs`);
    await build({
      entryPoints: [join(root, 'functions', `${name}.ts`)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: bundle,
      external: ['better-sqlite3'],
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      logLevel: 'silent',
    });
    const { zipped, unzipped } = zippedSize([bundle, ...native, ...included[name]!], root);
    const probe = `const t = performance.now(); const m = await import(${JSON.stringify(bundle)}); const init = ${name === 'mcp' ? "{ method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) }" : '{}'}; const r = await m.default(new Request('http://127.0.0.1' + ${JSON.stringify(REQUESTS[name])}, init)); await r.text(); process.stdout.write(String(performance.now() - t) + ' ' + r.status);`;
    const runs = Array.from({ length: 3 }, () => {
      const [elapsed, status] = execFileSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: root, env: { ...process.env, POLLEN_DB: db, FORECAST_CACHE_DB: forecastDb } }).toString().split(' ');
      if (!(ANSWERS[name] ?? ['200']).includes(status!)) throw new Error(`${name} answered ${status} in the cold-start probe`);
      return Number(elapsed);
    }).sort((a, b) => a - b);
    measures.push({
      id: 'B6',
      what: `${name}: cold start, import to first response (median of 3 fresh processes); bundle ${mb(statSync(bundle).size)} of JS`,
      value: ms(runs[1]!),
      baseline: '-',
      ratio: null,
      target: 'reported',
      met: null,
    });
    measures.push({
      id: 'B8',
      what: `${name} function zipped (JS bundle, better-sqlite3, ${included[name]!.map((f) => basename(f)).join(', ') || 'nothing else'}); ${mb(unzipped)} unzipped`,
      value: mb(zipped),
      baseline: '-',
      ratio: null,
      target: '<= 30 MB zipped',
      met: zipped <= 30 * 1024 * 1024,
    });
  }
  return measures;
}
