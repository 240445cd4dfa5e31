import { readFileSync } from 'node:fs';
import { MockAgent } from 'undici';

/** A recorded-format response from test/fixtures. */
export function fixture(name: string): Record<string, any> {
  return JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, any>;
}

/** A MockAgent that refuses any request it was not told about. */
export function mockAgent(): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  return agent;
}
