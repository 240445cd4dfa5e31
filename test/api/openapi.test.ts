import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/documents/openapi.js';
import { API_ROUTES, ROUTES } from '../../src/api/routes.js';
import { ROOT } from '../helpers/cli.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { useSite } from '../helpers/site.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

describe('the OpenAPI document', () => {
  it('describes every API route with its parameters and error responses', () => {
    const doc = openApiDocument(API_ROUTES) as {
      paths: Record<
        string,
        {
          get: {
            parameters: Array<{ name: string }>;
            responses: Record<string, { description: string; content: Record<string, { schema: { oneOf?: unknown[] } }> }>;
          };
        }
      >;
    };
    const apiRoutes = ROUTES.map((r) => r.path).filter((p) => p.startsWith('/api/'));
    // And the bulk files' manifest, a static file of every render.
    expect(Object.keys(doc.paths).sort()).toEqual([...apiRoutes, '/data/bulk/index.json'].sort());
    expect(doc.paths['/api/pollen-range']!.get.parameters.map((p) => p.name)).toEqual([
      'from',
      'to',
      'city',
      'aggregate',
      'limit',
      'format',
      'after',
      'timezone',
    ]);
    expect(Object.keys(doc.paths['/api/forecast']!.get.responses)).toEqual(['200', '400', '404', '405', '500', '503']);
    expect(doc.paths['/api/pollen']!.get.parameters.map((p) => p.name)).toEqual(['city', 'date', 'timezone']);
    // Every answer a function reads the stored data for may be a 503 DATA_UNAVAILABLE; nearest reads the site file only.
    expect(Object.keys(doc.paths['/api/weather']!.get.responses)).toEqual(['200', '400', '404', '405', '500', '503']);
    expect(doc.paths['/api/weather']!.get.responses['503']!.description).toMatch(
      /^The stored data cannot be read right now \(code DATA_UNAVAILABLE/,
    );
    expect(Object.keys(doc.paths['/api/cities']!.get.responses)).toEqual(['200', '405', '500', '503']); // no parameter, so no 400
    expect(Object.keys(doc.paths['/api/nearest']!.get.responses)).toEqual(['200', '400', '404', '405', '500']);
    // Health's own 503 (stale) or the stored data's.
    expect(Object.keys(doc.paths['/api/health']!.get.responses)).toEqual(['200', '405', '500', '503']);
    expect(doc.paths['/api/health']!.get.responses['503']!.content['application/json']!.schema.oneOf).toHaveLength(2);
  });

  it('gives every operation an operationId, and sets servers, license and an empty security', () => {
    const doc = openApiDocument(API_ROUTES) as Record<string, any>;
    const ids = Object.values(doc.paths as Record<string, { get: { operationId: string } }>).map((p) => p.get.operationId);
    expect(new Set(ids).size).toBe(ROUTES.filter((r) => r.path.startsWith('/api/')).length + 1);
    expect(doc.servers).toEqual([{ url: '/', description: 'This deployment' }]);
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(doc.security).toEqual([]);
    expect(JSON.stringify(doc)).not.toContain('prefixItems');
    expect(doc.components.schemas.MapFeature.properties.geometry.properties.coordinates).toMatchObject({
      type: 'array',
      items: { type: 'number' },
      minItems: 2,
      maxItems: 2,
    });
  });

  it('rejects bodies that break the schema, so the response checks can fail', () => {
    expect(() => expectMatchesOpenApi('/api/cities', 200, { cities: [{ name: 'X' }] })).toThrow();
    expect(() => expectMatchesOpenApi('/api/latest-date', 200, { date: '2025-02-30' })).toThrow();
    const from = { provider: 'open-meteo' };
    expect(() => expectMatchesOpenApi('/api/weather', 200, { ...from, rows: [{ city_slug: 'a', date: '2025-01-01', aqi: 6 }] })).toThrow();
    expect(() =>
      expectMatchesOpenApi('/api/weather', 200, { ...from, rows: [{ city_slug: 'a', date: '2025-01-01', humidity: null }] }),
    ).toThrow();
    expect(() => expectMatchesOpenApi('/api/pollen', 404, { error: 'x', code: 'UNSUPPORTED_CITY' })).toThrow();
    // Where the values come from is part of every answer that carries them.
    expect(() => expectMatchesOpenApi('/api/weather', 200, { rows: [{ city_slug: 'a', date: '2025-01-01', aqi: 5 }] })).toThrow();
    expectMatchesOpenApi('/api/weather', 200, { ...from, rows: [{ city_slug: 'a', date: '2025-01-01', aqi: 5 }] });
  });
});

describe('the OpenAPI document in the tools people use', () => {
  // A year after the sample's days: health is stale.
  const site = useSite({ now: Date.parse('2026-05-25T15:00:00Z') });
  const work = join(ROOT, 'test-artifacts', 'openapi-client');

  it("passes Redocly's recommended lint with no error and no warning", async () => {
    mkdirSync(work, { recursive: true });
    const file = join(work, 'openapi.json');
    writeFileSync(file, await (await site.get('/openapi.json')).text());
    const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
    const { stdout } = await run(process.execPath, [cli, 'lint', '--extends', 'recommended', '--format', 'json', file], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
    }).catch((error: { stdout: string }) => error);
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; message: string }>;
    };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('generates TypeScript types with openapi-typescript that a typed openapi-fetch client compiles against, and the client works', async () => {
    mkdirSync(work, { recursive: true });
    const doc = await (await site.get('/openapi.json')).json();
    writeFileSync(join(work, 'schema.d.ts'), astToString(await openapiTS(doc as never)));
    writeFileSync(
      join(work, 'client.ts'),
      `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

const client = createClient<paths>({ baseUrl: process.env.API_BASE });
export async function tulsaDay(): Promise<number | null> {
  const { data, error } = await client.GET('/api/pollen', { params: { query: { city: 'tulsa', date: '2025-04-01' } } });
  if (error) throw new Error(error.error);
  return data && 'rows' in data && data.rows.length > 0 && 'tree' in data.rows[0]! ? data.rows[0]!.tree : null;
}
export async function firstCoordinates(): Promise<number[]> {
  const { data } = await client.GET('/api/map-data', { params: { query: { date: 'latest' } } });
  return data?.features[0]?.geometry.coordinates ?? [];
}
export async function health(): Promise<'ok' | 'stale' | 'simulated' | undefined> {
  const { data, error } = await client.GET('/api/health');
  // 503 is typed as the same health body, other errors as {error}
  return data?.status ?? (error && 'status' in error ? error.status : undefined);
}
export async function unknownParameter(): Promise<void> {
  // @ts-expect-error an unknown parameter is a type error
  await client.GET('/api/weather', { params: { query: { town: 'tulsa' } } });
}
`,
    );
    writeFileSync(
      join(work, 'run.ts'),
      `import { firstCoordinates, health, tulsaDay } from './client.js';
console.log(JSON.stringify({ tree: await tulsaDay(), coordinates: await firstCoordinates(), health: await health() }));
`,
    );
    writeFileSync(join(work, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          types: ['node'],
          skipLibCheck: true,
        },
        files: ['client.ts', 'run.ts'],
      }),
    );
    const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
    const compiled = await run(process.execPath, [tsc, '-p', join(work, 'tsconfig.json')]).catch((error: { stdout: string }) => error);
    expect(compiled.stdout).toBe('');

    // The typed client, run against the local server.
    const ran = await run(process.execPath, ['--import', 'tsx', join(work, 'run.ts')], {
      cwd: ROOT,
      env: { ...process.env, API_BASE: site.server.url },
    });
    const expected =
      ((await (await site.get('/api/pollen?city=tulsa&date=2025-04-01')).json()) as { rows: Array<{ tree: number | null }> }).rows[0]
        ?.tree ?? null;
    expect(JSON.parse(ran.stdout)).toEqual({ tree: expected, coordinates: [expect.any(Number), expect.any(Number)], health: 'simulated' });
    rmSync(work, { recursive: true, force: true });
  });
});
