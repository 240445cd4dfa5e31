/** A route answering one of several bodies is an MCP tool whose output schema is one object that holds each. */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { oneObject } from '../../src/mcp/tools.js';

describe('an answer of several bodies, as one object', () => {
  const A = z.object({ city: z.string(), date: z.iso.date(), rows: z.array(z.object({ ts: z.string() })) });
  const B = z.object({ city: z.string(), rows: z.array(z.object({ date: z.string(), mean: z.number() })) });
  const merged = oneObject(z.union([A, B]));

  it('has every key of any body, optional where some body lacks it, each key once where the bodies agree', () => {
    expect(Object.keys(merged.shape)).toEqual(['city', 'date', 'rows']);
    expect(merged.shape.city.safeParse(undefined).success).toBe(false);
    expect(merged.shape.date.safeParse(undefined).success).toBe(true);
    expect(z.toJSONSchema(merged.shape.city)).toEqual(z.toJSONSchema(z.string()));
  });

  it.each([
    ['the first body', { city: 'austin', date: '2025-04-02', rows: [{ ts: '2025-04-02T00:00:00.000Z' }] }, true],
    ['the second body', { city: 'austin', rows: [{ date: '2025-04-02', mean: 3 }] }, true],
    ['neither (no city)', { rows: [] }, false],
    ['neither (a bad date)', { city: 'austin', date: '2025-02-30', rows: [] }, false],
  ])('takes %s', (_what, body, ok) => {
    expect(merged.safeParse(body).success).toBe(ok);
  });

  it('is the object itself for one object, and refused for a union of anything else', () => {
    expect(oneObject(A)).toBe(A);
    expect(() => oneObject(z.union([A, z.string()]))).toThrow(/one of several objects/);
  });
});
