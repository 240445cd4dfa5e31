/**
 * The OpenAPI 3.1 document, made from the route list: each documented route is an operation, its
 * parameters and its answers' schemas taken from the route, its components from the schemas the
 * API is built on (domain/schemas.ts, named in domain/schema-names.ts).
 */
import * as z from 'zod';
import { SCHEMA_NAMES } from '../../domain/schema-names.js';
import { listed } from '../../domain/words.js';
import { mediaType } from '../contract/format.js';
import { API_TITLE, API_VERSION } from '../contract/identity.js';
import { maxLengthOf, metaOf, type Param, TEXT_PATTERN, textBounded, valueSchema } from '../contract/query.js';
import { RISK_RULES } from '../contract/risk-rules.js';
import { errorSchema, type Json, type Route } from '../contract/route.js';

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** The paths of the routes that take a parameter, for the prose that names them. */
export const takingParam = (routes: readonly Route[], name: string): string[] =>
  routes.filter((r) => r.doc && Object.hasOwn(r.params, name)).map((r) => r.path);

const methodology = (routes: readonly Route[]) =>
  [
    ...RISK_RULES,
    "Negative or non-numeric provider values are stored as missing. Dates are UTC calendar days unless timezone=local asks for each city's local days; date-times are UTC, YYYY-MM-DDTHH:mm:ss.sssZ.",
    `Local days (timezone=local on ${listed(takingParam(routes, 'timezone'))}, and the days of /api/alerts; an extension of the contract): each city's calendar day in its IANA zone, from local midnight to local midnight, daylight saving included (23 hours on the spring change, 25 on the autumn one); the same daily rules apply to its hours.`,
  ].join(' ');

const OK = 'OK. Cache-Control: public, max-age=300, s-maxage=300, stale-while-revalidate=600.';
const BAD_REQUEST = "Invalid parameter: `Invalid parameter '<name>': expected ...`.";
const json = (schema: unknown, type = 'application/json') => ({ content: { [type]: { schema } } });
const ERROR = ref('Error');

/** A named schema by reference, a union of them as oneOf; plain JSON Schema as it is. */
function schemaOf(schema: z.ZodType | Json): unknown {
  if (!(schema instanceof z.ZodType)) return schema;
  const id = SCHEMA_NAMES.get(schema)?.id;
  if (id !== undefined) return ref(id);
  if (schema instanceof z.ZodUnion) return { oneOf: schema.options.map((s) => schemaOf(s as z.ZodType)) };
  throw new Error('a documented schema must be named (domain/schema-names.ts), or a union of named ones');
}

/** The default of a parameter, wherever its wrappers hold it. */
function defaultOf(schema: z.ZodType): unknown {
  if (schema instanceof z.ZodDefault) return schema.def.defaultValue;
  if (schema instanceof z.ZodOptional) return defaultOf(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe && !(schema instanceof z.ZodCodec)) return defaultOf(schema.in as z.ZodType);
  return undefined;
}

/**
 * A parameter's JSON Schema: the value it stands for (as an MCP argument takes it), its default
 * last, a constant without a type. A value read from wider text (words in any case) is that
 * text's pattern, with the words as examples: an enum would make a generated client refuse `high`.
 */
function parameterSchema(schema: Param): unknown {
  const { $schema: _s, ...document } = z.toJSONSchema(textBounded(valueSchema(schema), maxLengthOf(schema)), {
    io: 'output',
    target: 'draft-2020-12',
    override: ({ zodSchema, jsonSchema }) => {
      const pattern = TEXT_PATTERN.get(zodSchema);
      if (pattern === undefined) return;
      const words = jsonSchema.enum;
      delete jsonSchema.enum;
      Object.assign(jsonSchema, { type: 'string', pattern, ...(words ? { examples: words } : {}) });
    },
  }) as Json;
  const tidy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(tidy);
    if (node === null || typeof node !== 'object') return node;
    const rest = { ...(node as Json) };
    if ('const' in rest) delete rest.type;
    return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, tidy(v)]));
  };
  const fallback = defaultOf(schema);
  return { ...(tidy(document) as Json), ...(fallback === undefined ? {} : { default: fallback }) };
}

/** A query parameter of the document: a list is written comma-separated (style form, not exploded). */
const parameter = ([name, schema]: [string, Param]) => {
  const value = parameterSchema(schema) as Json;
  return {
    name,
    in: 'query',
    required: !schema.safeParse(undefined).success,
    description: metaOf(schema).description,
    ...(value.type === 'array' ? { style: 'form', explode: false } : {}),
    schema: value,
  };
};

/** A 503 for stored data a deployed function could not read from Netlify Blobs (docs/decisions.md, "HTTP behaviour"). */
const DATA_UNAVAILABLE =
  'The stored data cannot be read right now (code DATA_UNAVAILABLE: a shard Netlify Blobs did not give); see Retry-After. Never cached.';

/**
 * A route's 503s: its own, where it documents one, and the stored data's, for every route a
 * function reading shards answers (all but those answered from the site file alone).
 */
function unavailable(route: Route): Json {
  const doc = route.doc!;
  const reads = !doc.file && !route.siteFileOnly;
  if (!doc.unavailable) return reads ? { '503': { description: DATA_UNAVAILABLE, ...json(ERROR) } } : {};
  const own = schemaOf(doc.unavailable.schema);
  return {
    '503': reads
      ? { description: `${doc.unavailable.description} Or: ${DATA_UNAVAILABLE}`, ...json({ oneOf: [own, ERROR] }) }
      : { description: doc.unavailable.description, ...json(own) },
  };
}

/** What a route answers: 200 in its media types, then the errors it documents, by status. */
function responses(route: Route): Json {
  const doc = route.doc!;
  const content = {
    [doc.type ?? 'application/json']: { schema: schemaOf(route.response) },
    ...Object.fromEntries(Object.values(route.formats ?? {}).map((f) => [mediaType(f.contentType), { schema: f.schema }])),
  };
  const badRequest = errorSchema(route, 400);
  return {
    '200': { description: doc.ok ?? OK, content },
    ...(badRequest ? { '400': { description: doc.badRequest ?? BAD_REQUEST, ...json(schemaOf(badRequest)) } } : {}),
    ...(doc.notFound ? { '404': { description: doc.notFound.description, ...json(schemaOf(doc.notFound.schema)) } } : {}),
    ...(doc.file
      ? {}
      : {
          '405': { description: 'Only GET, HEAD and OPTIONS are allowed.', ...json(ERROR) },
          '500': { description: 'Internal server error (sanitized).', ...json(ERROR) },
        }),
    ...unavailable(route),
  };
}

/** The whole document, of the routes that have an operation. */
export function openApiDocument(routes: readonly Route[]): Json {
  const { schemas } = z.toJSONSchema(SCHEMA_NAMES, { uri: (id) => `#/components/schemas/${id}`, target: 'draft-2020-12' });
  const components = Object.fromEntries(
    Object.entries(schemas)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([id, s]) => {
        const { $schema: _s, $id: _i, ...rest } = s as Json;
        return [id, rest];
      }),
  );
  const paths = routes.flatMap((r) => {
    if (!r.doc) return [];
    const parameters = Object.entries(r.params).map(parameter);
    const get = responses(r);
    return [
      [
        r.path,
        {
          get: { operationId: r.doc.operationId, summary: r.doc.summary, description: r.doc.description, parameters, responses: get },
          // Every GET is answered to HEAD too (by the CDN for a file): its status and headers, no body.
          head: {
            operationId: `${r.doc.operationId}Head`,
            summary: `${r.doc.summary} (headers only)`,
            description: `The headers and status GET ${r.path} answers, without the body.`,
            parameters,
            responses: Object.fromEntries(
              Object.entries(get).map(([status, answer]) => [status, { description: (answer as { description: string }).description }]),
            ),
          },
        },
      ] as const,
    ];
  });
  return {
    openapi: '3.1.0',
    info: {
      title: API_TITLE,
      version: API_VERSION,
      license: { name: 'MIT', identifier: 'MIT' },
      description: `Read-only data for supported US cities. It answers every endpoint and field of the service contract (its version 2.2.1) as the contract defines them, and adds extensions, each described as one. ${methodology(routes)} Every response carries Access-Control-Allow-Origin: *; errors carry Cache-Control: no-store. Unknown parameters are ignored; when a parameter is repeated its last value counts (as Netlify's rules engine matches it). An MCP server is at /mcp. The whole served history is also static files for analysts: /data/bulk/index.json (schema BulkManifest) lists each month as Parquet and gzip CSV, with every column's type, unit and meaning.`,
    },
    // The deployment that serves this document; every endpoint is public, with no credential.
    servers: [{ url: '/', description: 'This deployment' }],
    security: [],
    paths: Object.fromEntries(paths),
    components: { schemas: components },
  };
}
