// Calls a function unzipped from its archive the way the Functions v2 runtime does: the module
// the archive's entry point hands to the bootstrap (`getLambdaHandler('./functions/NAME.mjs')`),
// its default export called with a web Request and a context, a web Response back.
// Run with the toolchain's Node 22 in the unzipped folder (Lambda's task root):
// `node invoke.mjs < requests.json`, where each request is {url, method?, headers?, body?, before?, waitMs?}
// (`before`: a URL fetched first, by which a test changes the world between two calls; `waitMs`: a pause before the call);
// prints {node, main, coldMs, answers: [{status, headers, body}]}.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const entry = readFileSync('___netlify-entry-point.mjs', 'utf8');
const main = /getLambdaHandler\('([^']+)'\)/.exec(entry)?.[1];
if (!main) throw new Error(`no handler path in the entry point: ${entry}`);
const started = performance.now();
const mod = await import(pathToFileURL(resolve(main)).href);
const handler = typeof mod.default === 'function' ? mod.default : mod.default.fetch.bind(mod.default);

const requests = JSON.parse(readFileSync(0, 'utf8'));
const answers = [];
let coldMs;
for (const r of requests) {
  if (r.before) await (await fetch(r.before)).text();
  if (r.waitMs) await new Promise((resolve) => setTimeout(resolve, r.waitMs));
  const request = new Request(r.url, { method: r.method ?? 'GET', headers: r.headers, body: r.body });
  const context = {
    url: new URL(r.url),
    params: {},
    site: {},
    deploy: {},
    geo: {},
    ip: '127.0.0.1',
    requestId: 'bundle-test',
    waitUntil: () => {},
  };
  const asked = performance.now();
  const response = await handler(request, context);
  answers.push({
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: await response.text(),
    ms: performance.now() - asked,
  });
  coldMs ??= performance.now() - started;
}
process.stdout.write(JSON.stringify({ node: process.version, main, coldMs, answers }));
