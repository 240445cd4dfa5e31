/**
 * The rules the code's folders keep, as functions of an import graph (imports.ts), so that each
 * can be shown to fail on a graph made by hand as well as to hold on the code.
 */

/** A module's folder: `src/api/endpoints/pollen.ts` is `api`, `build/cli.ts` is `build`. */
export const folderOf = (module: string): string => {
  const parts = module.split('/');
  return parts[0] === 'src' ? parts[1]! : parts[0]!;
};

/**
 * Tiers, lowest first, and inside a tier the order in which its folders may import each other:
 * a module imports from its own folder, from a lower tier, or from a folder before its own in its
 * tier. The domain knows nothing of the store, providers or HTTP; the store knows the domain;
 * handlers know both; the output (the file writer and its records, the bulk files' formats) writes
 * what the endpoints and the store give; scoring (forecast skill from the kept forecasts, its plan,
 * its threads and the scores it keeps) writes through the output and knows nothing of the render;
 * the wiring (stores, providers and the forecast service for a process) stands above the
 * endpoints; the render, which runs the scoring as one of its steps, and then the functions and the
 * command line above all.
 */
export const TIERS: readonly (readonly string[])[] = [
  ['domain'],
  ['settings.ts', 'store', 'providers'],
  ['deploy-data', 'forecast', 'ingest'],
  ['api'],
  ['output'],
  ['scoring'],
  ['site', 'wiring', 'mcp', 'render'],
  ['smoke', 'server'],
  ['functions', 'build'],
];

const rank = new Map(TIERS.flatMap((tier, t) => tier.map((folder, i) => [folder, t * 100 + i] as const)));
const rankOf = (module: string): number => {
  const r = rank.get(folderOf(module));
  if (r === undefined) throw new Error(`${module} is in no tier: add its folder to TIERS`);
  return r;
};

/** The imports that go up a tier, or across one against its order. */
export function upward(graph: ReadonlyMap<string, readonly string[]>): string[] {
  return [...graph].flatMap(([from, targets]) =>
    targets.filter((to) => folderOf(to) !== folderOf(from) && rankOf(to) > rankOf(from)).map((to) => `${from} -> ${to}`),
  );
}

/**
 * Inside src/api, lowest first: the contract (routes, parameters, answers, errors, schemas, the
 * context's interface), the endpoints, the documents made from the routes (OpenAPI, llms.txt),
 * the route table, and HTTP (respond over the table, the Netlify adapter, CDN headers).
 */
export const API_LAYERS: readonly string[] = ['contract', 'endpoints', 'documents', 'routes.ts', 'http'];

const apiLayerOf = (module: string): number => {
  const part = module.split('/')[2]!;
  const layer = API_LAYERS.indexOf(part);
  if (layer < 0) throw new Error(`${module} is in no layer of src/api: add it to API_LAYERS`);
  return layer;
};

/** The imports inside src/api that go up its layers. */
export function upwardInApi(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const inApi = (m: string) => m.startsWith('src/api/');
  return [...graph]
    .filter(([from]) => inApi(from))
    .flatMap(([from, targets]) => targets.filter((to) => inApi(to) && apiLayerOf(to) > apiLayerOf(from)).map((to) => `${from} -> ${to}`));
}

/**
 * The endpoints that reach another endpoint, directly or through a helper beside them: an
 * endpoint needing another's logic takes it from the domain, the contract or the forecast
 * service. `endpoints` are the modules the route table imports from src/api/endpoints.
 */
export function endpointToEndpoint(graph: ReadonlyMap<string, readonly string[]>, endpoints: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const start of endpoints) {
    const seen = new Set<string>([start]);
    const queue = [...(graph.get(start) ?? [])];
    while (queue.length > 0) {
      const next = queue.shift()!;
      if (seen.has(next) || !next.startsWith('src/api/endpoints/')) continue;
      seen.add(next);
      if (endpoints.has(next)) found.push(`${start} -> ${next}`);
      else queue.push(...(graph.get(next) ?? []));
    }
  }
  return found;
}

/**
 * Base names that say too little: a name (other than `index.ts`) held by more than two files, or
 * by two in one folder of src/ (`src/api/endpoints/weather.ts` and `src/domain/weather.ts` are
 * the two sides of one subject, an endpoint and its domain module; two `http.ts` in one tier would not be).
 */
export function vagueNames(files: readonly string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const file of files) {
    const name = file.split('/').pop()!;
    if (name !== 'index.ts') byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  return [...byName.values()]
    .filter((held) => held.length > 2 || (held.length === 2 && folderOf(held[0]!) === folderOf(held[1]!)))
    .map((held) => held.join(', '));
}
