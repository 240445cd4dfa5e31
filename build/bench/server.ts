/** The local server in a child process of its own (its memory read from /proc), and timed GETs against it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { percentile } from './measure.js';

export interface Child {
  url: string;
  process: ChildProcess;
}

/** A child process started with `args`, once its output matches `ready` (whose first group is its URL). */
export async function startChild(args: string[], env: NodeJS.ProcessEnv, cwd: string, ready: RegExp): Promise<Child> {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = ready.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  return { url, process: child };
}

/** kB of a /proc/<pid>/status field. */
export const procStatus = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

/** One GET, timed, counting the bytes on the wire. */
export function get(url: string, headers: Record<string, string> = {}): Promise<{ ms: number; bytes: number; status: number }> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { headers, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
      });
      res.on('end', () => resolve({ ms: performance.now() - t, bytes, status: res.statusCode! }));
    })
      .on('error', reject)
      .end();
  });
}

/** `n` GETs one after the other, all of which must answer 200. */
export async function sequential(n: number, url: string, headers: Record<string, string> = {}) {
  const runs = [];
  for (let i = 0; i < n; i++) runs.push(await get(url, headers));
  if (runs.some((r) => r.status !== 200)) throw new Error(`non-200 answers from ${url}`);
  return runs;
}

/** The p50 of `n` sequential GETs after `warm` warm-up ones. */
export async function p50(url: string, n = 100, warm = 0): Promise<number> {
  if (warm > 0) await sequential(warm, url);
  return percentile(
    (await sequential(n, url)).map((r) => r.ms),
    50,
  );
}
