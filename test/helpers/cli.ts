import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Starts the CLI as `npm run` would, without npm: node with tsx's loader. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'build/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** What a started command prints on stdout until `until` matches; rejects when it exits first. */
export function stdoutUntil(child: ChildProcess, until: RegExp): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const read = (d: Buffer) => {
      out += d;
      if (until.test(out)) {
        child.stdout!.off('data', read);
        resolve(out);
      }
    };
    child.stdout!.on('data', read);
    child.on('exit', (code) => reject(new Error(`the command exited with ${code}: ${out}`)));
  });
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to the end. `killWhen` sends SIGKILL as soon as stderr matches it. */
export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; killWhen?: RegExp | (() => boolean) } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = startCli(args, options.env);
    let stdout = '';
    let stderr = '';
    const { killWhen } = options;
    let poll: NodeJS.Timeout | undefined;
    if (typeof killWhen === 'function') {
      poll = setInterval(() => {
        if (killWhen()) child.kill('SIGKILL');
      }, 10);
    }
    child.stdout!.on('data', (d: Buffer) => (stdout += d));
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d;
      if (killWhen instanceof RegExp && killWhen.test(stderr)) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearInterval(poll);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
