/**
 * The functions as Netlify ships them, for the bundle test and the bench: the site staged as the
 * scheduled rebuild has it after `npm ci` on Node 22 and a render, bundled by zip-it-and-ship-it
 * with its netlify.toml, each archive unzipped into a folder the function cannot write (as
 * Lambda's task root is), and called there under Node 22.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, copyFileSync, cpSync, existsSync, linkSync, mkdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE22, TOOLCHAIN } from './toolchain.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..', '..');
const NOBODY = 65534;
const SITE_ENTRIES = ['functions', 'src', 'netlify.toml', 'package.json', 'tsconfig.json'];
const NATIVE = join('better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

export interface Archive {
  name: string;
  path: string;
  bytes: number;
  bundler: string;
  runtimeAPIVersion: number;
  runtimeVersion: string;
  /** The rate limit zip-it-and-ship-it read from the function's `config.rateLimit`, as the deploy's manifest carries it. */
  trafficRules?: unknown;
}

export interface Call {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** A URL the runner fetches before the call: how a test changes the world between two calls (stops Blobs, say). */
  before?: string;
  /** A pause before the call. */
  waitMs?: number;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** From the call to the last byte of its body. */
  ms: number;
}

export interface Invocation {
  node: string;
  /** The module the archive's entry point hands to the bootstrap. */
  main: string;
  /** From importing the module to the first answer's last byte. */
  coldMs: number;
  answers: Answer[];
}

/**
 * Bundles the functions of this project into `out`, with `servedDir`'s `shards.json`, `site.json`,
 * `bulk-index.json` and `outlook.json` as the render left them beside the store, and better-sqlite3
 * built for Node 22.
 */
export function bundleFunctions(servedDir: string, out: string): Archive[] {
  // Staged inside the project, so node_modules can be hard links (no copy of 300 MB).
  const site = join(ROOT, 'test-artifacts', `bundle-site-${process.pid}-${Date.now()}`);
  rmSync(site, { recursive: true, force: true });
  try {
    mkdirSync(join(site, 'snapshots', 'served'), { recursive: true });
    for (const entry of SITE_ENTRIES) cpSync(join(ROOT, entry), join(site, entry), { recursive: true });
    // The folder itself where node_modules is a link (a worktree sharing another's): `cp -a` would copy the link, and the
    // swap below would then replace the other tree's own binary, and nft would find no package inside the site.
    execFileSync('cp', ['-al', realpathSync(join(ROOT, 'node_modules')), join(site, 'node_modules')]);
    rmSync(join(site, 'node_modules', NATIVE)); // unlinked first: the project's own binary stays as it is
    copyFileSync(join(TOOLCHAIN, 'node_modules', NATIVE), join(site, 'node_modules', NATIVE));
    for (const file of ['shards.json', 'site.json', 'bulk-index.json', 'outlook.json'])
      copyFileSync(join(servedDir, file), join(site, 'snapshots', 'served', file));
    const zipped = execFileSync(NODE22, [join(HERE, 'zip.mjs'), site, out], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return (JSON.parse(zipped) as Omit<Archive, 'bytes'>[])
      .map((a) => ({ ...a, bytes: statSync(a.path).size }))
      .sort((a, b) => a.name.localeCompare(b.name));
  } finally {
    rmSync(site, { recursive: true, force: true });
  }
}

/** Unzips an archive with Python's zipfile (a reader independent of the writer), read-only for everyone. */
export function unzipReadOnly(archive: string, dir: string): void {
  execFileSync('python3', ['-m', 'zipfile', '-e', archive, dir]);
  execFileSync('chmod', ['-R', 'a-w,a+rX', dir]);
}

/**
 * Calls the function unzipped in `dir` the way the Functions v2 runtime does, under Node 22, with
 * only `env` set, and as nobody when this is root (for whom no folder is read-only). Asynchronous:
 * a Blobs server the function calls may run in this process. The folders above `dir` must be
 * readable by everyone.
 */
export async function invoke(dir: string, calls: Call[], env: Record<string, string> = {}): Promise<Invocation> {
  const asNobody = process.getuid?.() === 0;
  const { node, script } = asNobody ? runnerBeside(dir) : { node: NODE22, script: join(HERE, 'invoke.mjs') };
  const child = spawn(node, [script], {
    cwd: dir,
    env: { PATH: process.env.PATH, ...env },
    timeout: 120_000,
    ...(asNobody ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c));
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  child.stdin.end(JSON.stringify(calls));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`the function in ${dir} failed (${code}): ${stderr}`);
  return JSON.parse(stdout) as Invocation;
}

/**
 * Node 22 and the invoke script in a folder beside `dir`, where nobody can run them: the clone
 * they come from may sit in a folder only root may enter (a clone under /root, or in `mktemp -d`).
 * The binary is hard-linked where it can be (same file system), else copied.
 */
function runnerBeside(dir: string): { node: string; script: string } {
  const runner = join(dirname(dir), '.node22');
  const node = join(runner, 'node');
  const script = join(runner, 'invoke.mjs');
  if (!existsSync(script)) {
    mkdirSync(runner, { recursive: true });
    chmodSync(runner, 0o755);
    try {
      linkSync(NODE22, node);
    } catch {
      copyFileSync(NODE22, node);
    }
    chmodSync(node, 0o755);
    copyFileSync(join(HERE, 'invoke.mjs'), script);
    chmodSync(script, 0o644);
  }
  return { node, script };
}
