/**
 * The route list is the one definition of an endpoint: a route added in memory appears in the
 * OpenAPI document, in llms.txt, in the 400s its parameters give, and as an MCP tool that answers
 * the handler's object, with nothing else written for it.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ApiError, invalidParameter, UnsupportedCityError } from '../../src/api/contract/error.js';
import { type Format, formatParam, rowsText, TEXT } from '../../src/api/contract/format.js';
import { CITY_NOT_FOUND } from '../../src/api/contract/not-found.js';
import { cityParam, servedCity } from '../../src/api/contract/params.js';
import { integer, param } from '../../src/api/contract/query.js';
import { type Documented, type Route, route, toolArguments } from '../../src/api/contract/route.js';
import { llmsText } from '../../src/api/documents/llms.js';
import { openApiDocument } from '../../src/api/documents/openapi.js';
import { respondByRoute } from '../../src/api/http/respond.js';
import { API_ROUTES, ROUTES } from '../../src/api/routes.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { named } from '../../src/domain/schema-names.js';
import { createMcpServer } from '../../src/mcp/tools.js';
import { staticRules } from '../../src/render/redirects.js';
import { lazyContext } from '../../src/wiring/contexts.js';

const EchoResponse = named(
  'EchoResponse',
  'A city and a count, echoed.',
  z.object({ city: z.string().nullable(), times: z.number().int() }),
);

const echo = route({
  path: '/api/echo',
  params: {
    city: cityParam,
    times: param(integer(1, 9).default(1), { expected: 'a whole number from 1 to 9', description: 'How many times.' }),
  },
  response: EchoResponse,
  doc: { operationId: 'echoCity', summary: 'Echo', description: 'Echoes the city and the count.', notFound: CITY_NOT_FOUND },
  llms: 'echoes them',
  tool: { name: 'echo_city', title: 'Echo a city', description: 'Echoes the city slug and the count it is given, for this test.' },
  handle: ({ city, times }, { cities }) => ({ body: { city: city === undefined ? null : servedCity(cities, city).slug, times } }),
});
const routes = [...API_ROUTES, echo];

const ctx = lazyContext({
  store: () => {
    throw new Error('the echo reads no store');
  },
  cities: () => DEFAULT_CITIES,
  forecast: () => {
    throw new Error('no forecast');
  },
});

describe('a route added to the list', () => {
  it('is an operation of the OpenAPI document, with its parameters, answer and errors', () => {
    const doc = openApiDocument(routes) as { paths: Record<string, { get: Record<string, unknown> }> };
    expect(doc.paths['/api/echo']!.get).toEqual({
      operationId: 'echoCity',
      summary: 'Echo',
      description: 'Echoes the city and the count.',
      parameters: [
        {
          name: 'city',
          in: 'query',
          required: false,
          description: 'City slug (a city slug from GET /api/cities).',
          schema: { type: 'string', maxLength: 64, pattern: '\\S' },
        },
        {
          name: 'times',
          in: 'query',
          required: false,
          description: 'How many times.',
          schema: { type: 'integer', minimum: 1, maximum: 9, default: 1 },
        },
      ],
      responses: {
        '200': {
          description: 'OK. Cache-Control: public, max-age=300, s-maxage=300, stale-while-revalidate=600.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/EchoResponse' } } },
        },
        '400': {
          description: "Invalid parameter: `Invalid parameter '<name>': expected ...`.",
          content: { 'application/json': { schema: { $ref: '#/components/schemas/InvalidParameterError' } } },
        },
        '404': {
          description: 'Unsupported city (UNSUPPORTED_CITY).',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/UnsupportedCityError' } } },
        },
        '405': {
          description: 'Only GET, HEAD and OPTIONS are allowed.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
        '500': {
          description: 'Internal server error (sanitized).',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
        '503': {
          description:
            'The stored data cannot be read right now (code DATA_UNAVAILABLE: a shard Netlify Blobs did not give); see Retry-After. Never cached.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    });
    expect(Object.keys(openApiDocument(API_ROUTES).paths as object)).not.toContain('/api/echo');
  });

  it('is a line of llms.txt, and its tool is listed there', () => {
    const text = llmsText(routes, 40);
    // The request is written from the parameters: each with its shape, from its bounds where it has them.
    expect(text).toContain('\n- /api/echo?city=SLUG&times=1..9: echoes them\n');
    expect(text).toMatch(/- Tools: find_city, .*, get_bulk_files \(the bulk files' manifest\), echo_city, explain_risk\./);
    expect(llmsText(API_ROUTES, 40)).not.toContain('echo');
  });

  it.each([
    [
      'times=0',
      400,
      { error: "Invalid parameter 'times': expected a whole number from 1 to 9", code: 'INVALID_PARAMETER', parameter: 'times' },
    ],
    [
      'times=2&city=',
      400,
      { error: "Invalid parameter 'city': expected a city slug from GET /api/cities", code: 'INVALID_PARAMETER', parameter: 'city' },
    ],
    ['times=2&city=atlantis', 404, { code: 'UNSUPPORTED_CITY', city: 'atlantis' }],
    ['times=3&city=tulsa&times=4', 200, { city: 'tulsa', times: 4 }],
    ['', 200, { city: null, times: 1 }],
  ])('answers ?%s with %i, from its parameters alone', async (query, status, body) => {
    const r = await respondByRoute(echo, { method: 'GET', path: '/api/echo', query: new URLSearchParams(query) }, ctx, () => {});
    expect(r.status).toBe(status);
    expect(JSON.parse(r.body as string)).toMatchObject(body);
  });

  describe('as an MCP tool', () => {
    let client: Client;
    beforeAll(async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createMcpServer(ctx, [...ROUTES, echo]).connect(serverSide);
      client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(clientSide);
    });
    afterAll(async () => client?.close());

    it('is listed, read-only, with an argument per parameter and the route answer as its output', async () => {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'echo_city');
      expect(tool).toMatchObject({ title: 'Echo a city', annotations: { readOnlyHint: true, openWorldHint: false } });
      expect(Object.keys(tool!.inputSchema.properties ?? {})).toEqual(['city', 'times']);
      expect(Object.keys(tool!.outputSchema?.properties ?? {})).toEqual(['city', 'times']);
    });

    it("answers the handler's object, and a bad argument as a tool error that names it", async () => {
      const ok = await client.callTool({ name: 'echo_city', arguments: { city: 'austin', times: 3 } });
      expect(ok.structuredContent).toEqual({ city: 'austin', times: 3 });
      const bad = (await client.callTool({ name: 'echo_city', arguments: { times: 12 } })) as {
        isError?: boolean;
        content: Array<{ text: string }>;
      };
      expect(bad.isError).toBe(true);
      // The parameter's bound is the tool's: the SDK refuses the argument by it, naming it as the 400 does.
      expect(bad.content[0]!.text).toMatch(/Invalid arguments for tool echo_city: expected a whole number from 1 to 9 at times$/);
      const unknown = (await client.callTool({ name: 'echo_city', arguments: { city: 'atlantis' } })) as {
        content: Array<{ text: string }>;
      };
      expect(unknown.content[0]!.text).toMatch(
        /^Unsupported city 'atlantis'.*\(argument 'city': call list_cities for the supported slugs\)$/,
      );
    });
  });
});

describe('a parameter added to a route', () => {
  // Adding a parameter is its schema in the route's params, and nothing else: its bounds are the
  // 400's check, the OpenAPI parameter's schema and the MCP argument's.
  const louder = route({
    path: '/api/louder',
    params: {
      city: cityParam,
      volume: param(integer(0, 11).default(5), { expected: 'a volume from 0 to 11', description: 'How loud.' }),
    },
    response: named('LouderResponse', 'The volume, echoed.', z.object({ volume: z.number().int() })),
    doc: { operationId: 'louder', summary: 'Louder', description: 'Echoes the volume.' },
    tool: { name: 'louder', title: 'Louder', description: 'Echoes the volume, for this test.' },
    handle: ({ volume }) => ({ body: { volume } }),
  });

  it('is documented with its bounds and default', () => {
    const doc = openApiDocument([louder]) as { paths: Record<string, { get: { parameters: unknown[] } }> };
    expect(doc.paths['/api/louder']!.get.parameters[1]).toEqual({
      name: 'volume',
      in: 'query',
      required: false,
      description: 'How loud.',
      schema: { type: 'integer', minimum: 0, maximum: 11, default: 5 },
    });
  });

  it.each([
    [
      'volume=12',
      400,
      { error: "Invalid parameter 'volume': expected a volume from 0 to 11", code: 'INVALID_PARAMETER', parameter: 'volume' },
    ],
    [
      'volume=1e1',
      400,
      { error: "Invalid parameter 'volume': expected a volume from 0 to 11", code: 'INVALID_PARAMETER', parameter: 'volume' },
    ],
    [
      'volume=%2011',
      400,
      { error: "Invalid parameter 'volume': expected a volume from 0 to 11", code: 'INVALID_PARAMETER', parameter: 'volume' },
    ],
    ['volume=11', 200, { volume: 11 }],
    ['', 200, { volume: 5 }],
  ])('answers ?%s with %i', async (query, status, body) => {
    const r = await respondByRoute(louder, { method: 'GET', path: '/api/louder', query: new URLSearchParams(query) }, ctx, () => {});
    expect(r.status).toBe(status);
    expect(JSON.parse(r.body as string)).toEqual(body);
  });

  it('gives the MCP tool an argument with the same bounds', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(ctx, [louder]).connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'louder');
      expect(tool!.inputSchema.properties).toMatchObject({
        volume: { type: 'integer', minimum: 0, maximum: 11, description: 'How loud.' },
      });
      expect((await client.callTool({ name: 'louder', arguments: { volume: 7 } })).structuredContent).toEqual({ volume: 7 });
      expect((await client.callTool({ name: 'louder', arguments: { volume: 12 } })).isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('a format added to a route', () => {
  // A format is a renderer in the route's formats and its name in the format parameter: the
  // handler answers JSON whatever is asked, and the renderer writes the other form from it.
  const Counted = named('CountedResponse', 'Rows counted.', z.object({ rows: z.array(z.object({ n: z.number().int() })) }));
  const plain: Format<z.infer<typeof Counted>> = {
    contentType: 'text/plain; charset=utf-8',
    schema: TEXT,
    rows: { head: 'n\n', line: (r) => `${r.n}\n` },
    render: (answer) => ({ text: rowsText(answer, plain.rows!), contentType: plain.contentType, headers: { 'X-Rendered': 'yes' } }),
  };
  const counted = route({
    path: '/api/counted',
    params: { format: formatParam(['txt'], 'JSON or plain text.') },
    response: Counted,
    formats: { txt: plain },
    doc: { operationId: 'counted', summary: 'Counted', description: 'Counts to three.' },
    tool: { name: 'counted', title: 'Counted', description: 'Counts to three, for this test.' },
    handle: (_q, _ctx, { format }) => ({
      body: { rows: [1, 2, 3].map((n) => ({ n })) },
      headers: { 'X-Sized-As': format ? 'txt' : 'json' },
    }),
  });

  it.each([
    ['', 200, 'application/json', '{"rows":[{"n":1},{"n":2},{"n":3}]}'],
    ['format=TXT', 200, 'text/plain; charset=utf-8', 'n\n1\n2\n3\n'],
    [
      'format=csv',
      400,
      'application/json',
      `{"error":"Invalid parameter 'format': expected 'json' or 'txt'","code":"INVALID_PARAMETER","parameter":"format"}`,
    ],
  ])('answers ?%s with %i in %s', async (query, status, type, text) => {
    const r = await respondByRoute(counted, { method: 'GET', path: '/api/counted', query: new URLSearchParams(query) }, ctx, () => {});
    expect([r.status, r.headers['Content-Type'], typeof r.body === 'string' ? r.body : [...r.body].join('')]).toEqual([status, type, text]);
    // The handler was told the format, to size rows as it writes them; the renderer keeps its headers.
    if (query === 'format=TXT') expect([r.headers['X-Sized-As'], r.headers['X-Rendered']]).toEqual(['txt', 'yes']);
  });

  it("is a media type of the 200 in OpenAPI, and not an MCP tool's argument", () => {
    const doc = openApiDocument([counted]) as { paths: Record<string, { get: { responses: { '200': { content: object } } } }> };
    expect(Object.keys(doc.paths['/api/counted']!.get.responses['200'].content)).toEqual(['application/json', 'text/plain']);
    expect(toolArguments(counted).map((a) => a.name)).toEqual([]);
  });

  it('is refused where the format parameter does not take exactly the formats offered', () => {
    const spec = { path: '/api/miscounted', response: Counted, formats: { txt: plain }, handle: () => ({ body: { rows: [] } }) };
    expect(() => route({ ...spec, params: {} })).toThrow(/format parameter/);
    expect(() => route({ ...spec, params: { format: formatParam(['txt', 'csv'], 'three') } })).toThrow(/format parameter/);
    expect(() => route({ ...spec, params: { format: formatParam(['tsv'], 'another') } })).toThrow(/format parameter/);
  });
});

describe('an error a route answers', () => {
  // An error is answered only as its route's operation documents it: the body's schema (the one
  // its ApiError was made with) for the status, so OpenAPI and the answers cannot drift apart.
  const Teapot = named('TeapotError', 'A city that is a teapot.', z.object({ error: z.string(), code: z.literal('TEAPOT') }));
  const teapot = (status: number) => new ApiError(status, { error: 'A teapot', code: 'TEAPOT' as const }, { schema: Teapot });
  const throwing = (notFound: Documented | undefined, error: () => ApiError) =>
    route({
      path: '/api/teapot',
      params: { city: cityParam },
      response: named('TeapotResponse', 'Never answered.', z.object({})),
      doc: { operationId: 'teapot', summary: 'Teapot', description: 'Throws.', ...(notFound ? { notFound } : {}) },
      handle: () => {
        throw error();
      },
    });
  const answer = async (r: Route) => {
    const logged: unknown[] = [];
    const res = await respondByRoute(r, { method: 'GET', path: '/api/teapot', query: new URLSearchParams() }, ctx, (_m, e) =>
      logged.push(e),
    );
    return { status: res.status, body: JSON.parse(res.body as string) as { error: string }, logged };
  };

  it.each([
    ['documented for its status', { description: 'A teapot.', schema: Teapot }, () => teapot(404), 404],
    ['one of the union documented', { description: 'Either.', schema: z.union([UnsupportedCityError, Teapot]) }, () => teapot(404), 404],
    ['a body of another schema', { description: 'A city.', schema: UnsupportedCityError }, () => teapot(404), 500],
    ['a status not documented', { description: 'A teapot.', schema: Teapot }, () => teapot(503), 500],
    ['with no 404 documented', undefined, () => teapot(404), 500],
    ['an invalid parameter, wherever there are parameters', undefined, () => invalidParameter('city', 'a slug'), 400],
  ])('%s', async (_what, notFound, error, status) => {
    const res = await answer(throwing(notFound, error));
    expect(res.status).toBe(status);
    if (status === 500) expect(String(res.logged[0])).toMatch(/\/api\/teapot answered \d+ with a body its operation does not document/);
    else expect(res.logged).toEqual([]);
  });
});

describe("the README's Adding an endpoint", () => {
  // The list names every file an endpoint touches: for each endpoint of the route list, what it
  // touches is worked out from the tree, and each must be named in the list.
  const ROOT = join(import.meta.dirname, '..', '..');
  const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
  const readme = read('README.md');
  const list = readme.slice(readme.indexOf('### Adding an endpoint'), readme.indexOf('\n## ', readme.indexOf('### Adding an endpoint')));
  const filesIn = (dir: string) => readdirSync(join(ROOT, dir)).map((f) => ({ name: f, text: read(join(dir, f)) }));
  const declares = (text: string, path: string) => new RegExp(`path: (\\[[^\\]]*)?'${path.replaceAll('.', '\\.')}'`).test(text);
  const toml = read('netlify.toml');
  const apiTests = filesIn('test/api');
  const smoke = filesIn('src/smoke')
    .map((f) => f.text)
    .join('\n');

  /** What adding this endpoint touched, as the list names it. */
  function touched(r: Route): string[] {
    const module = filesIn('src/api/endpoints').filter((f) => declares(f.text, r.path));
    expect(module, `${r.path}: the module that declares it`).toHaveLength(1);
    const functions = filesIn('functions').filter((f) => declares(f.text, r.path));
    const carries = functions.some((f) => toml.includes(`[functions.${f.name.replace(/\.ts$/, '')}]`));
    const own = `test/api/${module[0]!.name.replace(/\.ts$/, '.test.ts')}`;
    expect(apiTests.find((t) => `test/api/${t.name}` === own)?.text, `${r.path} is asked for in its own ${own}`).toContain(r.path);
    expect(smoke, `${r.path} has a smoke check`).toContain(r.path);
    expect(read('docs/api.md'), `${r.path} in docs/api.md`).toContain(r.path);
    expect(read('CHANGELOG.md'), `${r.path} in CHANGELOG.md`).toContain(r.path);
    return [
      'src/api/endpoints/<endpoint>.ts',
      'route({...})',
      'src/api/routes.ts',
      'src/api/contract/identity.ts',
      'test/api/<endpoint>.test.ts',
      'src/smoke/',
      'docs/api.md',
      'CHANGELOG.md',
      ...(staticRules().some((s) => s.from === r.path) ? ['netlify.toml', '[[redirects]]'] : []),
      ...(functions.length > 0 ? ['functions/'] : []),
      ...(carries ? ['[functions.<name>]'] : []),
      ...(r.forms.length === 0 ? ['test/api/answer-schemas.test.ts'] : []),
      ...(r.formats ? ['src/api/contract/format.ts', 'formatParam'] : []),
    ];
  }

  it.each(API_ROUTES.map((r) => [r.path, r] as const))('names every file %s touched', (_path, r) => {
    for (const file of touched(r)) expect(list, `${r.path} touched ${file}`).toContain(`\`${file}\``);
  });

  it('every rule of netlify.toml for a path alone is a route form, as step 3 says', () => {
    for (const rule of staticRules()) expect(toml).toContain(`from = "${rule.from}"\n  to = "${rule.to}"`);
  });
});
