/**
 * The key that signs the render cache's state (render-cache.ts). The scheduled rebuild restores
 * the cache from CI's cache store, which any workflow running on the default branch can write
 * (GitHub's "Restrictions for accessing a cache"; CodeQL's actions/cache-poisoning queries): a
 * state is reused only when signed with this key (HMAC-SHA256), so a restored cache that this
 * build's renders did not write is ignored, never trusted. On a deploy the key is the `RENDER_CACHE_KEY`
 * secret; on a laptop, a key made once beside the store (`render-cache.key`, readable by its owner
 * alone), which the store's folder keeps like the store itself.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readNoFollow } from '../../deploy-data/safe-files.js';
import { RenderError } from '../../output/render-error.js';
import { settingsOf } from '../../settings.js';

/** The secret's name, as the scheduled rebuild's repository secret and the environment variable. */
export const CACHE_KEY_SECRET = 'RENDER_CACHE_KEY';

/** Where a laptop keeps its key: beside the store. */
export const cacheKeyPath = (storePath: string): string => join(dirname(storePath), 'render-cache.key');

/**
 * The key for the render cache of the store at `storePath`: the environment's, else (unless
 * `required`, as the scheduled rebuild asks) the key file beside the store, made the first time.
 */
export function cacheKeyOf(storePath: string, required = false): Buffer {
  const secret = settingsOf().RENDER_CACHE_KEY;
  if (secret !== undefined) return Buffer.from(secret, 'utf8');
  if (required)
    throw new RenderError(
      `${CACHE_KEY_SECRET} is not set: the scheduled rebuild signs its render cache with it. Add the repository secret ${CACHE_KEY_SECRET} (32 characters or more: openssl rand -hex 32). Nothing was published.`,
    );
  const path = cacheKeyPath(storePath);
  try {
    // Made once, never replaced: `wx` fails when anything (a link included) is there.
    writeFileSync(path, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = readNoFollow(path).toString('utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(key)) throw new RenderError(`${path} is not a render cache key: remove it, and the next render makes one`);
  return Buffer.from(key, 'hex');
}

/** The signature of a state's text. */
export const signatureOf = (key: Buffer, text: string): string => createHmac('sha256', key).update(text).digest('hex');

/** Whether `signature` is the text's, compared in constant time. */
export function signedBy(key: Buffer, text: string, signature: unknown): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return false;
  return timingSafeEqual(Buffer.from(signatureOf(key, text), 'hex'), Buffer.from(signature, 'hex'));
}
