/**
 * What a provider client's tests share: an HTTP client whose waits are recorded rather than slept
 * (backoff 500 ms to 8 s, jitter halfway), and the failure a call ends with, checked to be a
 * ProviderError whose message never holds the key.
 */
import { expect } from 'vitest';
import type { CallLedger } from '../../src/providers/http-client.js';
import { HttpClient } from '../../src/providers/http-client.js';
import { ProviderError } from '../../src/providers/provider.js';

export interface TestHttpOptions {
  retries?: number;
  timeoutMs?: number;
  ledger?: CallLedger;
}

/** A provider's HTTP client for a test, and the waits it asked for. */
export function testHttp(provider: string, key: string, options: TestHttpOptions = {}): { sleeps: number[]; http: HttpClient } {
  const sleeps: number[] = [];
  const http = new HttpClient({
    provider,
    policy: { retries: options.retries ?? 2, backoffMs: 500, maxBackoffMs: 8000, timeoutMs: options.timeoutMs ?? 2000 },
    secrets: [key],
    ledger: options.ledger,
    random: () => 0.5,
    sleep: async (ms) => void sleeps.push(ms),
  });
  return { sleeps, http };
}

/** The ProviderError a call fails with; its message holds no key. */
export function failureOf(key: string): (promise: Promise<unknown>) => Promise<ProviderError> {
  return async (promise) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).not.toContain(key);
    return error as ProviderError;
  };
}
