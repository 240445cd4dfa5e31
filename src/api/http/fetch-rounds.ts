/**
 * Answers from a store fetched before it is read (its shards in Netlify Blobs): the handlers stay
 * synchronous readers of `StoreReader`. An answer is made; where it read shards not fetched yet,
 * it is thrown away, they are fetched, all at once, and it is made again, until an answer reads
 * nothing it lacks. Each round learns every shard the answer reaches with what it has, so an
 * answer takes as many rounds as it has reads that depend on an earlier one (a city's newest days,
 * then their rows): two or three. Everything is fetched before the status goes out, so a
 * streamed answer never stops halfway for a shard it could not have.
 */
import type { ApiContext } from '../contract/context.js';

/** Where failures are logged (respond.ts's ErrorLog). */
type ErrorLog = (message: string, error: unknown) => void;

/** Rounds of fetching an answer may take: more means a read that keeps finding new shards, a fault. */
export const FETCH_ROUNDS = 6;

/** Thrown when an answer still lacks shards after FETCH_ROUNDS rounds. */
export class TooManyRounds extends Error {}

/**
 * `run`'s result on a context whose store holds all it reads: the context itself where nothing is
 * fetched. `drop` releases a result thrown away (a streamed body never read); what `run` logs is
 * logged for the answer kept only. Throws ShardUnavailable when a shard cannot be had.
 */
export async function whenFetched<T>(
  ctx: ApiContext,
  run: (ctx: ApiContext, log: ErrorLog) => Promise<T>,
  log: ErrorLog,
  drop: (result: T) => void = () => {},
): Promise<T> {
  if (!ctx.fetching) return run(ctx, log);
  const read = await ctx.fetching();
  for (let round = 1; ; round++) {
    const logged: Array<Parameters<ErrorLog>> = [];
    const result = await run(read.ctx, (...entry) => logged.push(entry));
    if (!read.lacking()) {
      for (const entry of logged) log(...entry);
      return result;
    }
    drop(result);
    if (round === FETCH_ROUNDS) throw new TooManyRounds(`an answer still lacked shards after ${round} rounds of fetching`);
    await read.fetch();
  }
}
