/**
 * The environment a render process starts with. glibc gives each thread that allocates a malloc
 * arena of its own (up to eight per core) and keeps what is freed in each for reuse: at 200
 * cities the render's native memory grew by about 100 MB while its two workers wrote the bulk
 * files, to a peak of about 600 MB; with two arenas the same render peaked at 424 MB and took no
 * longer (docs/performance.md, B1's peak RSS). JavaScript's own heap is V8's, not malloc's, so
 * the threads hardly contend for the two. glibc reads the variable once, when the process starts:
 * `npm run render` and `npm run build` set it (package.json), and what spawns a render (the local
 * server, the bench) passes `renderEnv()`. Other C libraries ignore it. Sources: mallopt(3),
 * M_ARENA_MAX and its environment variable MALLOC_ARENA_MAX; glibc's malloc/arena.c, whose
 * default limit is NARENAS_FROM_NCORES, 8 arenas per CPU on 64-bit systems.
 */

/** The variable and its value, as package.json's render and build scripts also set it. */
export const RENDER_ARENAS = { MALLOC_ARENA_MAX: '2' } as const;

/** `env` with MALLOC_ARENA_MAX set to 2, unless it sets it already. */
export function renderEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return env.MALLOC_ARENA_MAX === undefined ? { ...env, ...RENDER_ARENAS } : env;
}
