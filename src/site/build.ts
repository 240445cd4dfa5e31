/** The landing page's files, built with esbuild: the same sources always give the same bytes. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { openApiDocument } from '../api/openapi.js';
import { landingPage, referencePage } from './page.js';

const require = createRequire(import.meta.url);

/** The files `siteFiles` makes. */
export const SITE_FILES: readonly string[] = ['index.html', 'api-reference.html', 'assets/app.js', 'assets/app.css', 'assets/us-states.json'];

/** Every file of the site, by path under the publish folder. */
export async function siteFiles(): Promise<Map<string, string | Uint8Array>> {
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
    ['api-reference.html', referencePage(openApiDocument())],
    ['assets/app.js', script],
    ['assets/app.css', readFileSync(new URL('./style.css', import.meta.url), 'utf8')],
    ['assets/us-states.json', readFileSync(require.resolve('us-atlas/states-albers-10m.json'), 'utf8')],
  ]);
}
