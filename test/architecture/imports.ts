/**
 * The import graph of the code: which module imports which, as the TypeScript compiler's own
 * parser reads the files. `import type` and `export type` load nothing at run time, but a module
 * that names another's types still depends on it: the graph counts them unless asked not to.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Every .ts file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? e.name === 'node_modules'
        ? []
        : sources(join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

/**
 * Whether an import or export declaration loads its module when the importer runs. With
 * verbatimModuleSyntax (tsconfig.json) only `import type` and `export type` are erased:
 * `import { type A }` is kept as `import {}`, which loads the module.
 */
function loads(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) return !node.isTypeOnly;
  return !node.importClause?.isTypeOnly;
}

/**
 * The imports of each module under `root`'s folders `dirs` (all of `root` without them), as paths
 * relative to `root` (`src/api/routes.ts`); with `runTime`, only those that load a module.
 */
export function importGraph(root: string, dirs: readonly string[] = ['.'], { runTime = false } = {}): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap((d) => sources(join(root, d)))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
    const edges: string[] = [];
    for (const node of source.statements) {
      if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) || !node.moduleSpecifier || (runTime && !loads(node))) continue;
      const spec = (node.moduleSpecifier as ts.StringLiteral).text;
      if (!spec.startsWith('.')) continue;
      edges.push(relative(root, resolve(dirname(file), spec.replace(/\.js$/, '.ts'))));
    }
    graph.set(relative(root, file), edges);
  }
  return graph;
}

/** The cycles of a graph, each once, as the modules along it (the first repeated at the end). */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') {
        const cycle = [...path.slice(path.indexOf(next)), next];
        const key = [...cycle.slice(0, -1)].sort().join(' ');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(cycle);
        }
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}
