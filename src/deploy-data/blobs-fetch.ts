/**
 * The `fetch` the functions give the Netlify Blobs client. The client (@netlify/blobs 10.7,
 * `fetchAndRetry` in its dist/chunk-*.js, from src/retry.ts) wraps whatever fetch it is given
 * and retries a 429, a 5xx or a thrown error up to 5 times, 5 s apart (1 ms when NODE_ENV is
 * `test`), with no timeout of its own: an outage of Blobs would hold a request for 25 s or more,
 * past a synchronous function's 10 s. Here each request gives up after BLOBS_TIMEOUT_MS, is tried
 * once more on a timeout, a network error, a 429 or a 5xx, and then answers 408, which the client
 * does not retry: it throws at once, and the caller decides (a stale forecast, a 503). Once a
 * call has given up, the next ones within BLOBS_PAUSE_MS fail at once.
 */

/** How long one request to Blobs may take. */
export const BLOBS_TIMEOUT_MS = 3_000;
/** Requests per call: the first and one retry. */
export const BLOBS_ATTEMPTS = 2;

/**
 * After a call that gave up, how long the calls of this process answer 408 at once, without a
 * request: an outage then costs the first call its two attempts, not every call that follows
 * (the forecast makes several Blobs calls a request: the cache, the ledger, the write, the kept copy).
 */
export const BLOBS_PAUSE_MS = 30_000;

/** Whether the client would retry an answer with this status. */
const retried = (status: number): boolean => status === 429 || status >= 500;

/**
 * A fetch that bounds each call to `attempts` requests of `timeoutMs` each, and pauses every call
 * for `pauseMs` after one gave up. Bodies are sent again on a retry: the client sends strings,
 * ArrayBuffers and Blobs, which can be (never a stream).
 */
export function boundedFetch(
  base: typeof fetch = globalThis.fetch,
  { timeoutMs = BLOBS_TIMEOUT_MS, attempts = BLOBS_ATTEMPTS, pauseMs = BLOBS_PAUSE_MS, now = Date.now } = {},
): typeof fetch {
  let pausedUntil = 0;
  let pausedWhy = '';
  return async (input, init) => {
    if (now() < pausedUntil)
      return new Response(`Netlify Blobs is not asked again until ${new Date(pausedUntil).toISOString()}: ${pausedWhy}`, { status: 408 });
    let why = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
      try {
        const res = await base(input, { ...init, signal });
        if (!retried(res.status)) {
          pausedUntil = 0;
          return res;
        }
        why = `HTTP ${res.status}`;
        await res.body?.cancel();
      } catch (error) {
        // The caller's own abort is theirs to see, not a reason to try again.
        if (init?.signal?.aborted) throw error;
        why = timeout.aborted ? `no answer within ${timeoutMs} ms` : (error as Error).message;
      }
    }
    pausedWhy = `${why} (${attempts} attempts)`;
    pausedUntil = now() + pauseMs;
    return new Response(`Netlify Blobs did not answer: ${pausedWhy}`, { status: 408 });
  };
}
