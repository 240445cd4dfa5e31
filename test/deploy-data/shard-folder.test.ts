/**
 * The shards folder beside the store, as a render and an upload find it: a shard whose bytes are
 * not its key's is written again by the next render and never sent out; the folder keeps only
 * what the manifests name (a folder, a link or another file there is reported by name and
 * removed, never what a link points to); a manifest that is a link or does not parse is taken as
 * absent and written anew.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getStore } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { respond } from '../../src/api/http/respond.js';
import { SHARD_STORE } from '../../src/deploy-data/remote-shards.js';
import {
  FolderShards,
  readShardManifest,
  shardFolderPath,
  shardManifestPath,
  stageDeployShards,
} from '../../src/deploy-data/shard-folder.js';
import { uploadShards } from '../../src/deploy-data/shard-upload.js';
import { dayNumber } from '../../src/domain/dates.js';
import { render } from '../../src/render/render.js';
import { cityShard, ShardUnavailable } from '../../src/store/shards/shard-format.js';
import { ShardIndex } from '../../src/store/shards/shard-index.js';
import { ShardStore } from '../../src/store/shards/shard-reader.js';
import { openStore } from '../../src/store/store.js';
import { shardContext } from '../../src/wiring/contexts.js';
import { buildStore } from '../helpers/site.js';

const CITIES = ['tulsa', 'boise'];
const SPAN = { from: dayNumber('2025-03-25'), to: dayNumber('2025-04-04') };
const TULSA = cityShard('tulsa', SPAN.to);
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('the shards folder', () => {
  let dir: string;
  let db: string;
  let folder: string;
  let manifestPath: string;
  const renderAgain = async () => {
    const store = openStore(db, { readonly: true });
    try {
      return await render(store, join(dir, 'publish'));
    } finally {
      store.close();
    }
  };
  /** Flips one byte of the shard `name` in place; its key. */
  const flip = (name: string): string => {
    const key = readShardManifest(manifestPath)!.shards[name]!;
    const path = join(folder, key);
    const bytes = readFileSync(path);
    bytes[bytes.length >> 1]! ^= 0xff;
    writeFileSync(path, bytes);
    return key;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pollen-shard-folder-'));
    db = await buildStore(dir, CITIES, SPAN);
    [folder, manifestPath] = [shardFolderPath(db), shardManifestPath(db)];
    await renderAgain();
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes again, at the next render, a shard whose bytes are not its key, and says so', async () => {
    const key = flip(TULSA);
    const summary = await renderAgain();
    expect(sha256(join(folder, key))).toBe(key);
    expect(summary.warnings.join('\n')).toContain(`${key} (not the bytes of its key)`);
    const manifest = readShardManifest(manifestPath)!;
    const source = new FolderShards(folder, manifest);
    const ctx = shardContext(new ShardStore(ShardIndex.of(source), source));
    const query = new URLSearchParams({ city: 'tulsa', date: '2025-04-04' });
    const r = await respond({ method: 'GET', path: '/api/pollen', query, origin: 'http://x.test' }, ctx);
    expect(r.status).toBe(200);
  }, 300_000);

  it('sends out no shard whose bytes are not its key: the upload stops before the manifest, staging refuses it', async () => {
    const blobsDir = mkdtempSync(join(tmpdir(), 'pollen-blobs-'));
    const server = new BlobsServer({ directory: blobsDir, token: 'token', logger: () => {} });
    const edgeURL = `http://127.0.0.1:${(await server.start()).port}`;
    try {
      const key = flip(TULSA);
      const blobs = getStore({
        name: SHARD_STORE,
        siteID: 'site',
        token: 'token',
        edgeURL,
        uncachedEdgeURL: edgeURL,
        consistency: 'strong',
      });
      const manifest = readShardManifest(manifestPath)!;
      const upload = uploadShards(blobs, folder, manifest, '2025-04-05T06:00:00.000Z');
      await expect(upload).rejects.toThrow(ShardUnavailable);
      await expect(upload).rejects.toThrow(`its bytes are not those of key ${key}`);
      const held = (await blobs.list()).blobs.map((b) => b.key);
      expect(held).not.toContain(key);
      expect(held.filter((k) => k.startsWith('manifests/'))).toEqual([]);
      const staged = join(dir, 'staged');
      mkdirSync(staged);
      writeFileSync(join(staged, 'shards.json'), JSON.stringify(manifest));
      expect(() => stageDeployShards(join(staged, 'shards.json'), folder, staged)).toThrow(ShardUnavailable);
      // The next render makes it again, and then it goes up.
      await renderAgain();
      expect((await uploadShards(blobs, folder, readShardManifest(manifestPath)!, '2025-04-05T07:00:00.000Z')).manifestKey).toBe(
        'manifests/2025-04-05T07:00:00.000Z.json',
      );
    } finally {
      await server.stop();
      rmSync(blobsDir, { recursive: true, force: true });
    }
  }, 300_000);

  it('renders past a folder, a link and another file in the shards folder, which it names and removes (never what the link points to)', async () => {
    const key = readShardManifest(manifestPath)!.shards[TULSA]!;
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'not a shard');
    // A folder and a link in a shard's place, and beside the shards.
    rmSync(join(folder, key));
    mkdirSync(join(folder, key));
    writeFileSync(join(folder, key, 'inside'), 'x');
    mkdirSync(join(folder, 'stray-folder'));
    symlinkSync(outside, join(folder, 'stray-link'));
    writeFileSync(join(folder, 'notes.txt'), 'mine');
    const summary = await renderAgain();
    const warnings = summary.warnings.join('\n');
    expect(warnings).toContain(`${key} (a folder)`);
    for (const stray of ['stray-folder (folder)', 'stray-link (a link)', 'notes.txt (file)']) expect(warnings).toContain(stray);
    expect(sha256(join(folder, key))).toBe(key);
    for (const stray of ['stray-folder', 'stray-link', 'notes.txt']) expect(existsSync(join(folder, stray)), stray).toBe(false);
    expect(readFileSync(outside, 'utf8')).toBe('not a shard');
  }, 300_000);

  it('takes a manifest that is a link, or does not parse, as absent: the render writes it anew and says so', async () => {
    const outside = join(dir, 'elsewhere.json');
    writeFileSync(outside, readFileSync(manifestPath));
    const kept = readFileSync(outside, 'utf8');
    rmSync(manifestPath);
    symlinkSync(outside, manifestPath);
    let summary = await renderAgain();
    expect(summary.warnings.join('\n')).toContain(`the shards manifest ${manifestPath} is a link, not a file`);
    expect(lstatSync(manifestPath).isFile()).toBe(true);
    expect(readFileSync(outside, 'utf8')).toBe(kept);
    writeFileSync(manifestPath, '{"format": 1, "shards": {');
    summary = await renderAgain();
    expect(summary.warnings.join('\n')).toContain(`the shards manifest ${manifestPath} does not parse`);
    const manifest = readShardManifest(manifestPath)!;
    for (const key of Object.values(manifest.shards)) expect(sha256(join(folder, key))).toBe(key);
  }, 300_000);
});
