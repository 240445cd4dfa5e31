/**
 * `npm start` once its store is filled: serve at once, render in the background. A site with no
 * render yet first gets the files that must be static (the landing page, `_redirects`, the answers
 * made once); every other answer is then the fallback function's, from the same handlers, until
 * the render swaps its folder in. The render runs in a process of its own, so the server keeps
 * answering while it works.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { publishFirstFiles } from '../render/first-files.js';
import { renderEnv } from '../render/threads/render-process.js';
import { openStore } from '../store/store.js';
import { type RunningServer, serve } from './server.js';

export interface StartOptions {
  /** The repository: netlify.toml, the functions, and build/cli.ts that renders. */
  root: string;
  db: string;
  publish: string;
  host: string;
  port: number;
  /** Where the render says what it did (its summary, or why it could not). */
  log: NodeJS.WritableStream;
}

export interface Started {
  server: RunningServer;
  /** The render under way; resolves with its exit code once its folder is served (or it failed). */
  rendered: Promise<number>;
}

/** Serves the site at once, and renders it in the background. */
export async function startSite(options: StartOptions): Promise<Started> {
  const publish = resolve(options.publish);
  if (!existsSync(publish)) {
    const store = openStore(options.db, { readonly: true });
    try {
      await publishFirstFiles(store, publish);
    } finally {
      store.close();
    }
  }
  process.env.POLLEN_DB = resolve(options.db); // read by the functions, in this process
  const server = await serve({ root: options.root, publishDir: publish, host: options.host, port: options.port });
  return { server, rendered: renderInBackground(options, publish) };
}

/** `build/cli.ts render` in a child process, ended with this one; its exit code. */
function renderInBackground(options: StartOptions, publish: string): Promise<number> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(options.root, 'build/cli.ts'), 'render', '--db', resolve(options.db), '--publish', publish],
    { cwd: options.root, stdio: ['ignore', 'pipe', 'pipe'], env: renderEnv() },
  );
  child.stdout!.pipe(options.log, { end: false });
  child.stderr!.pipe(options.log, { end: false });
  const stop = () => child.kill();
  process.once('exit', stop);
  return new Promise((done) =>
    child.on('exit', (code) => {
      process.off('exit', stop);
      done(code ?? 1);
    }),
  );
}
