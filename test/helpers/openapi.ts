import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import { openApiDocument } from '../../src/api/documents/openapi.js';
import { API_ROUTES } from '../../src/api/routes.js';

type Json = Record<string, any>;
const doc = openApiDocument(API_ROUTES) as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: 'openapi', components: doc.components }, 'openapi');

const validators = new Map<string, ReturnType<typeof ajv.compile>>();

/** Asserts that a body is what the OpenAPI document promises for this path and status. */
export function expectMatchesOpenApi(path: string, status: number, body: unknown): void {
  const operation = doc.paths[path]?.get;
  expect(operation, `no operation for ${path} in the OpenAPI document`).toBeDefined();
  const response = operation.responses[String(status)];
  expect(response, `no ${status} response for ${path} in the OpenAPI document`).toBeDefined();
  const [, media] = Object.entries(response.content as Json)[0]!;
  const key = `${path} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const schema = JSON.parse(JSON.stringify(media.schema).replaceAll('"#/components/', '"openapi#/components/'));
    validators.set(key, (validate = ajv.compile(schema)));
  }
  const ok = validate(body);
  expect(ok, `${key}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

const parameterValidators = new Map<string, ReturnType<typeof ajv.compile>>();

/**
 * What the OpenAPI document says of a query parameter's text, read as a generated client (or a
 * validating proxy such as Prism) reads it: a list split on commas (style form, not exploded), a
 * number as a number. Undefined when the document takes the value, else why it does not.
 */
export function parameterProblem(path: string, name: string, text: string): string | undefined {
  const parameter = (doc.paths[path]?.get?.parameters as Json[] | undefined)?.find((p) => p.name === name);
  if (!parameter) return `${path} documents no parameter '${name}'`;
  const key = `${path} ${name}`;
  let validate = parameterValidators.get(key);
  if (!validate) parameterValidators.set(key, (validate = ajv.compile(parameter.schema)));
  const numeric = (type: unknown, t: string) => ((type === 'integer' || type === 'number') && /^-?[\d.]+$/.test(t) ? Number(t) : t);
  const value =
    parameter.schema.type === 'array'
      ? text.split(',').map((t) => numeric(parameter.schema.items?.type, t))
      : numeric(parameter.schema.type, text);
  return validate(value) ? undefined : `${name}=${text}: ${ajv.errorsText(validate.errors)}`;
}
