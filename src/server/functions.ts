/** Netlify Functions v2 loaded in-process, with the `path` and `preferStatic` of their config. */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pathPattern } from './netlify-config.js';

export type FunctionHandler = (request: Request, context: unknown) => Response | Promise<Response>;

export interface LoadedFunction {
  name: string;
  handler: FunctionHandler;
  paths: RegExp[];
  preferStatic: boolean;
}

/** Every function module in `dir` that has a `path` in its config. */
export async function loadFunctions(dir: string): Promise<LoadedFunction[]> {
  const files = readdirSync(dir)
    .filter((f) => /\.(ts|mts|js|mjs)$/.test(f))
    .sort();
  const loaded: LoadedFunction[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(resolve(join(dir, file))).href)) as {
      default?: FunctionHandler;
      config?: { path?: string | string[]; preferStatic?: boolean };
    };
    if (!mod.default || !mod.config?.path) continue;
    const paths = Array.isArray(mod.config.path) ? mod.config.path : [mod.config.path];
    loaded.push({
      name: file.replace(/\.\w+$/, ''),
      handler: mod.default,
      paths: paths.map(pathPattern),
      preferStatic: mod.config.preferStatic ?? false,
    });
  }
  return loaded;
}

/** The first function whose path matches. */
export function functionFor(functions: readonly LoadedFunction[], path: string): LoadedFunction | undefined {
  return functions.find((f) => f.paths.some((p) => p.test(path)));
}
