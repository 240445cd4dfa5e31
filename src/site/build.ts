/**
 * The landing page's files, built with esbuild, and the API reference page, rendered from the
 * OpenAPI document by Redoc (`@redocly/cli build-docs`): the same sources always give the same bytes.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { openApiDocument } from '../api/documents/openapi.js';
import { API_ROUTES } from '../api/routes.js';
import { landingPage } from './page.js';

const require = createRequire(import.meta.url);
const run = promisify(execFile);

/** The page's style sheets, one file served: the page's own, then its sections'. */
const STYLES = ['./style.css', './season.css', './alerts.css'];

/** The files `siteFiles` makes. */
export const SITE_FILES: readonly string[] = [
  'index.html',
  'api-reference.html',
  'assets/app.js',
  'assets/app.css',
  'assets/us-states.json',
];

/**
 * Every file of the site, by path under the publish folder; without `reference`, all but the API
 * reference page (Redoc takes seconds: a site's first files leave it to the render).
 */
export async function siteFiles({ reference = true } = {}): Promise<Map<string, string | Uint8Array>> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./app/main.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const script = result.outputFiles[0]!.contents;
  return new Map<string, string | Uint8Array>([
    ['index.html', landingPage('/assets/app.js', '/assets/app.css')],
    ...(reference ? [['api-reference.html', await referencePage(openApiDocument(API_ROUTES))] as const] : []),
    ['assets/app.js', script],
    ['assets/app.css', STYLES.map((name) => readFileSync(new URL(name, import.meta.url), 'utf8')).join('\n')],
    ['assets/us-states.json', readFileSync(require.resolve('us-atlas/states-albers-10m.json'), 'utf8')],
  ]);
}

/**
 * api-reference.html: Redoc's page for the document, with Redoc inlined (`--inlineBundle`) and a
 * template whose Content-Security-Policy refuses anything from elsewhere, so the page loads
 * nothing from a CDN. Telemetry and update checks are off.
 */
async function referencePage(doc: object): Promise<string> {
  const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
  const dir = mkdtempSync(join(tmpdir(), 'pollen-reference-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
    const template = fileURLToPath(new URL('./reference.hbs', import.meta.url));
    const out = join(dir, 'reference.html');
    await run(
      process.execPath,
      [
        cli,
        'build-docs',
        join(dir, 'openapi.json'),
        '--inlineBundle',
        '-t',
        template,
        '--title',
        'API reference: pollen, weather and air quality',
        '-o',
        out,
      ],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    return readFileSync(out, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
