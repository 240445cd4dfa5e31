/**
 * The one HTTP policy of every provider client: a timeout per attempt, retries with exponential
 * backoff and full jitter for retryable failures only, a concurrency limit, every attempt counted
 * against a daily budget, and failures mapped to ProviderError with credentials redacted.
 */
import { request, type Dispatcher } from 'undici';
import { ProviderError, type ProviderFailure } from './provider.js';

/** Counts upstream calls and says whether one more is allowed. */
export interface CallLedger {
  /** Records one call, or throws a `quota` ProviderError when the budget is spent. */
  reserve(): void | Promise<void>;
}

export interface HttpPolicy {
  timeoutMs: number;
  /** Further attempts after a retryable failure. */
  retries: number;
  backoffMs: number;
  maxBackoffMs: number;
  concurrency: number;
}

export const DEFAULT_POLICY: HttpPolicy = { timeoutMs: 15_000, retries: 3, backoffMs: 500, maxBackoffMs: 8_000, concurrency: 4 };

export interface HttpClientOptions {
  provider: string;
  policy?: Partial<HttpPolicy>;
  /** undici dispatcher; tests pass a MockAgent. */
  dispatcher?: Dispatcher;
  ledger?: CallLedger;
  /** Values that must never appear in an error message (API keys). */
  secrets?: readonly string[];
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const NETWORK_CODES = /^(UND_ERR_|ECONN|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH)/;

export class HttpClient {
  readonly provider: string;
  readonly policy: HttpPolicy;
  /** Attempts made, for tests and summaries. */
  attempts = 0;
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: HttpClientOptions) {
    this.provider = options.provider;
    this.policy = { ...DEFAULT_POLICY, ...options.policy };
  }

  /** GETs JSON, retrying what is worth retrying. */
  async getJson(url: URL, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.limited(() => this.once(url, headers, signal));
      } catch (error) {
        const failure = error instanceof ProviderError ? error : this.fail('unavailable', `request failed`, error);
        if (!failure.retryable || attempt >= this.policy.retries || signal?.aborted) throw failure;
        await (this.options.sleep ?? sleep)(this.backoff(attempt, failure.retryAfterSeconds));
      }
    }
  }

  /** Exponential backoff with full jitter, or the server's Retry-After when it is longer. */
  backoff(attempt: number, retryAfterSeconds?: number): number {
    const cap = Math.min(this.policy.maxBackoffMs, this.policy.backoffMs * 2 ** attempt);
    const jittered = Math.round(cap * (this.options.random ?? Math.random)());
    return Math.max(jittered, Math.min((retryAfterSeconds ?? 0) * 1000, this.policy.maxBackoffMs));
  }

  private async once(url: URL, headers: Record<string, string>, signal?: AbortSignal): Promise<unknown> {
    await this.options.ledger?.reserve();
    this.attempts++;
    const timeout = AbortSignal.timeout(this.policy.timeoutMs);
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json', ...headers },
        dispatcher: this.options.dispatcher,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        headersTimeout: this.policy.timeoutMs,
        bodyTimeout: this.policy.timeoutMs,
      });
    } catch (error) {
      throw this.fail('unavailable', timeout.aborted ? `timed out after ${this.policy.timeoutMs} ms` : 'connection failed', error);
    }
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      throw this.fail('unavailable', 'response cut off', error);
    }
    const status = response.statusCode;
    if (status >= 200 && status < 300) {
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw this.fail('bad_payload', `HTTP ${status} with a body that is not JSON`, error);
      }
    }
    const retryAfter = Number(response.headers['retry-after']);
    const detail = `HTTP ${status} from ${url.pathname}: ${this.redact(text.slice(0, 200))}`;
    const failure: ProviderFailure =
      status === 401 || status === 403 ? 'unauthorized' : status === 404 ? 'not_covered' : status === 429 ? 'quota' : status >= 500 || status === 408 ? 'unavailable' : 'bad_payload';
    throw new ProviderError(this.provider, failure, detail, Number.isFinite(retryAfter) ? { retryAfterSeconds: retryAfter } : undefined);
  }

  private fail(failure: ProviderFailure, message: string, cause: unknown): ProviderError {
    const code = (cause as { code?: string } | undefined)?.code;
    const why = code && NETWORK_CODES.test(code) ? ` (${code})` : '';
    return new ProviderError(this.provider, failure, this.redact(`${message}${why}`));
  }

  /** The text with every secret replaced. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.options.secrets ?? []) if (secret) out = out.split(secret).join('***');
    return out;
  }

  private async limited<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.policy.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
