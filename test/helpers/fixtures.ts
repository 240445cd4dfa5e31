import { readFileSync } from 'node:fs';

/** A recorded-format response from test/fixtures. */
export function fixture(name: string): Record<string, any> {
  return JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, any>;
}
