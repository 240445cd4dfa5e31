/**
 * What a process that was killed leaves behind (a served store, a folder or a file it was writing
 * under a name with its process id): removed by the next run, once that process is gone, and
 * never while it still runs (two renders of one store may overlap).
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Whether the process `pid` is running: signal 0 asks without sending (EPERM: it runs, as another user). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes each entry of `dir` whose name `pattern` matches, its first group being the id of the
 * process that wrote it, when that process is gone (a link is removed, never what it points to).
 * Says which it removed.
 */
export function removeLeftovers(dir: string, ...patterns: RegExp[]): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = leftoverPid(name, patterns);
    if (pid === undefined || processAlive(pid)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** The id of the process that left `name`, by the first of `patterns` it matches (its first group), or undefined. */
export function leftoverPid(name: string, patterns: readonly RegExp[]): number | undefined {
  for (const pattern of patterns) {
    const pid = pattern.exec(name)?.[1];
    if (pid !== undefined) return Number(pid);
  }
  return undefined;
}

/** The name of a file written beside its place under a name of its own, then renamed (writeJsonFile, folderPut): its group, the writer's id. */
export const TEMP_FILE = /^.+\.(\d+)-[0-9a-f]{12}\.tmp$/;
