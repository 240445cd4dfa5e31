/**
 * The schemas the OpenAPI document names as components: each endpoint module names its own bodies
 * and errors beside its route, and the shared rows are named in schemas.ts. The document lists
 * every named schema, by name.
 */
import * as z from 'zod';

export const registry = z.registry<{ id: string; description?: string }>();

/** A schema the document refers to by `id`. */
export function named<T extends z.ZodType>(id: string, description: string, schema: T): T {
  registry.add(schema, { id, description });
  return schema;
}

// A date and an instant as answers write them: defined once, with the rows (domain/schemas.ts).
export { DateTime, Day } from '../../domain/schemas.js';
