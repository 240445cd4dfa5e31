// Bundles a site's functions as Netlify does, with zip-it-and-ship-it and the site's netlify.toml.
// Run with the toolchain's Node 22: `node zip.mjs <site folder> <out folder>`; prints the
// archives as JSON. The `[functions]` settings are translated to zip-it-and-ship-it's config as
// @netlify/build does it (packages/build/src/plugins_core/functions/zisi.ts, normalizeFunctionConfig:
// `included_files` to `includedFiles` with `includedFilesBasePath` the build folder, and so on;
// top-level keys apply to every function, `[functions.NAME]` to one, as `'*'` and `NAME`), with the
// runtime the scheduled rebuild sets (`AWS_LAMBDA_JS_RUNTIME`, nodejs22.x).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [site, out] = process.argv.slice(2).map((p) => resolve(p));
const toolchain = createRequire(new URL('./toolchain/package.json', import.meta.url));
const { zipFunctions } = await import(pathToFileURL(toolchain.resolve('@netlify/zip-it-and-ship-it')).href);
const project = createRequire(join(site, 'package.json'));
const { parse } = await import(pathToFileURL(project.resolve('smol-toml')).href);

const toml = parse(readFileSync(join(site, 'netlify.toml'), 'utf8'));
const { functions: settings = {}, build = {} } = toml;
const perFunction = Object.entries(settings).filter(([, v]) => typeof v === 'object' && !Array.isArray(v));
const shared = Object.fromEntries(Object.entries(settings).filter(([, v]) => typeof v !== 'object' || Array.isArray(v)));
const normalize = (c) => ({
  externalNodeModules: c.external_node_modules,
  includedFiles: c.included_files,
  includedFilesBasePath: site,
  ignoredNodeModules: c.ignored_node_modules,
  nodeVersion: 'nodejs22.x',
  nodeBundler: c.node_bundler === 'esbuild' ? 'esbuild_zisi' : c.node_bundler,
});
const config = Object.fromEntries([['*', normalize(shared)], ...perFunction.map(([name, c]) => [name, normalize(c)])]);

const results = await zipFunctions(join(site, build.functions ?? 'functions'), out, { basePath: site, repositoryRoot: site, config });
process.stdout.write(
  JSON.stringify(
    results.map((r) => ({
      name: r.name,
      path: r.path,
      bundler: r.bundler,
      runtimeAPIVersion: r.runtimeAPIVersion,
      runtimeVersion: r.runtimeVersion,
      entryFilename: r.entryFilename,
      mainFile: r.mainFile,
      nativeNodeModules: r.nativeNodeModules,
      includedFiles: r.includedFiles,
      config: r.config,
      trafficRules: r.trafficRules,
    })),
  ),
);
