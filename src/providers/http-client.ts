/**
 * The one HTTP policy of every provider client: a timeout per attempt, retries with exponential
 * backoff and full jitter for retryable failures only, a concurrency limit, every attempt counted
 * against a daily budget, and failures mapped to ProviderError with credentials redacted.
 */
import { type Dispatcher, request } from 'undici';
import { ProviderError, type ProviderFailure } from './provider.js';

/** Counts upstream calls and says whether one more is allowed. */
export interface CallLedger {
  /** Records a call of this weight, or throws a `quota` ProviderError when it would exceed the budget. */
  reserve(weight: number): void | Promise<void>;
}

/** How a provider reads an answer's status: success, or a failure with what to do about it. */
export type Verdict =
  | { ok: true }
  /** `note`: the provider's meaning in plain words, put before the body in the error's message. */
  | { ok: false; failure: ProviderFailure; retryAfterSeconds?: number; note?: string };

/** Reads a status with its body and headers; each provider maps its own. */
export type Classifier = (status: number, body: string, headers: Record<string, string | string[] | undefined>) => Verdict;

/**
 * The common reading, which a provider refines: only 200 is success (another 2xx means something
 * the provider must say); 401/403 unauthorized; 404 no data for the location; 408 and 5xx
 * unavailable; 429 quota; any other status rejected.
 */
export function commonVerdict(status: number): Verdict {
  if (status === 200) return { ok: true };
  const failure: ProviderFailure =
    status === 401 || status === 403
      ? 'unauthorized'
      : status === 404
        ? 'not_covered'
        : status === 429
          ? 'quota'
          : status >= 500 || status === 408
            ? 'unavailable'
            : 'rejected';
  return { ok: false, failure };
}

export interface RequestOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** What the call counts against the daily budget (Open-Meteo weighs calls by their size). */
  weight?: number;
  classify?: Classifier;
}

/** Wait before asking a throttled provider again when it does not say how long. */
export const THROTTLE_WAIT_SECONDS = 60;

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
  /** undici dispatcher (a proxy, or a pool of one's own). */
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
  async getJson(url: URL, options: RequestOptions = {}): Promise<unknown> {
    const { signal } = options;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.limited(() => this.once(url, options));
      } catch (error) {
        const failure = error instanceof ProviderError ? error : this.fail('unavailable', `request failed`, error);
        if (!failure.retryable || attempt >= this.policy.retries || signal?.aborted) throw failure;
        await (this.options.sleep ?? sleep)(this.backoff(attempt, failure));
      }
    }
  }

  /**
   * The wait before another attempt: a throttled provider's own wait, uncapped (asking sooner only
   * meets the same limit); otherwise exponential backoff with full jitter, or the server's
   * Retry-After when it is longer, both capped.
   */
  backoff(attempt: number, failure?: Pick<ProviderError, 'failure' | 'retryAfterSeconds'>): number {
    if (failure?.failure === 'throttled') return (failure.retryAfterSeconds ?? THROTTLE_WAIT_SECONDS) * 1000;
    const cap = Math.min(this.policy.maxBackoffMs, this.policy.backoffMs * 2 ** attempt);
    const jittered = Math.round(cap * (this.options.random ?? Math.random)());
    return Math.max(jittered, Math.min((failure?.retryAfterSeconds ?? 0) * 1000, this.policy.maxBackoffMs));
  }

  private async once(url: URL, { headers = {}, signal, weight = 1, classify = commonVerdict }: RequestOptions): Promise<unknown> {
    await this.options.ledger?.reserve(weight);
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
    const verdict = classify(status, text, response.headers);
    if (verdict.ok) {
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw this.fail('bad_payload', `HTTP ${status} with a body that is not JSON`, error);
      }
    }
    // The server's own Retry-After, when it sends one, over what the provider's documentation says.
    const header = response.headers['retry-after'];
    const retryAfter =
      (typeof header === 'string' && /^\d+$/.test(header.trim()) ? Number(header) : undefined) ?? verdict.retryAfterSeconds;
    const note = verdict.note === undefined ? '' : `${verdict.note}; `;
    const detail = `HTTP ${status} from ${url.pathname}: ${note}${this.redact(text.slice(0, 200))}`;
    throw new ProviderError(
      this.provider,
      verdict.failure,
      detail,
      retryAfter === undefined ? undefined : { retryAfterSeconds: retryAfter },
    );
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
