/**
 * The names of the shapes the service answers, given where each shape is defined: the OpenAPI
 * document lists every named schema as a component, by its name, and refers to it by name
 * wherever another schema holds it. A registry of its own rather than zod's global one, so that
 * other JSON Schemas made of these shapes (the MCP tools') stay whole.
 */
import * as z from 'zod';

export const SCHEMA_NAMES = z.registry<{ id: string; description?: string }>();

/** A schema the OpenAPI document names `id`, described by `description`. */
export function named<T extends z.ZodType>(id: string, description: string, schema: T): T {
  SCHEMA_NAMES.add(schema, { id, description });
  return schema;
}
