/**
 * Shards in Netlify Blobs (a real BlobsServer): each deploy uploads only the shards the store
 * lacks, keeps the last manifests' shards and deletes the rest, so a kept deploy never reads a
 * deleted shard; and a function's context reading them from Blobs, fetching what each answer
 * reads in rounds, answers as the shards on disk do.
 */

import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getDeployStore, getStore } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, respond, respondFetched } from '../../src/api/http/respond.js';
import { SHARD_STORE } from '../../src/deploy-data/remote-shards.js';
import { DEPLOY_BLOBS_DIR, readShardManifest, type ShardManifest, stageDeployShards } from '../../src/deploy-data/shard-folder.js';
import { uploadShards } from '../../src/deploy-data/shard-upload.js';
import { dayNumber, dayString } from '../../src/domain/dates.js';
import { render } from '../../src/render/render.js';
import { openStore } from '../../src/store/store.js';
import { environmentContext } from '../../src/wiring/contexts.js';
import { buildStore, ingestSample } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const CITIES = ['tulsa', 'boise'];
const SPAN = { from: dayNumber('2025-03-25'), to: dayNumber('2025-04-04') };

describe('shards in Netlify Blobs', () => {
  let dir: string;
  let db: string;
  let server: BlobsServer;
  let edgeURL: string;
  const manifests: ShardManifest[] = [];
  const blobs = () =>
    getStore({ name: SHARD_STORE, siteID: 'site', token: 'token', edgeURL, uncachedEdgeURL: edgeURL, consistency: 'strong' });
  const keysOf = (m: ShardManifest) => new Set(Object.values(m.shards));
  const held = async () => new Set((await blobs().list()).blobs.map((b) => b.key).filter((k) => !k.startsWith('manifests/')));

  beforeAll(async () => {
    dir = tempDir();
    server = new BlobsServer({ directory: join(dir, 'blobs'), token: 'token', logger: () => {} });
    edgeURL = `http://127.0.0.1:${(await server.start()).port}`;
    db = await buildStore(dir, CITIES, SPAN);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  /** Renders, and uploads as the scheduled rebuild does before its deploy. */
  const deploy = async (day: number, keep: number) => {
    const store = openStore(db);
    if (day > SPAN.to) await ingestSample(store, CITIES, { from: day, to: day });
    await render(store, join(dir, 'publish'));
    store.close();
    const manifest = readShardManifest(join(dir, 'served', 'shards.json'))!;
    manifests.push(manifest);
    return uploadShards(blobs(), join(dir, 'shards'), manifest, `2025-04-${String(manifests.length).padStart(2, '0')}T06:00:00.000Z`, keep);
  };

  it('uploads only the shards the store lacks, and deletes those no kept manifest names', async () => {
    const first = await deploy(SPAN.to, 2);
    expect(first).toMatchObject({ uploaded: keysOf(manifests[0]!).size, deleted: 0, manifests: 1 });
    const again = await uploadShards(blobs(), join(dir, 'shards'), manifests[0]!, '2025-04-01T07:00:00.000Z', 2);
    expect(again).toMatchObject({ uploaded: 0, bytes: 0 });
    const second = await deploy(SPAN.to + 1, 2);
    const [a, b] = [keysOf(manifests[0]!), keysOf(manifests[1]!)];
    expect(second.uploaded).toBe([...b].filter((k) => !a.has(k)).length);
    expect(second.uploaded).toBeLessThan(b.size / 4);
    const third = await deploy(SPAN.to + 2, 2);
    const c = keysOf(manifests[2]!);
    // The last two manifests' shards are all there, and nothing else: the first deploy's own are gone.
    expect(await held()).toEqual(new Set([...b, ...c]));
    expect(third.manifests).toBe(2);
    const listed = (await blobs().list({ prefix: 'manifests/' })).blobs.map((x) => x.key).sort();
    expect(listed).toEqual(['manifests/2025-04-02T06:00:00.000Z.json', 'manifests/2025-04-03T06:00:00.000Z.json']);
    for (const key of [...b, ...c]) expect(await blobs().get(key, { type: 'arrayBuffer' }), key).not.toBeNull();
  }, 300_000);

  it('a deployed context fetches the shards each answer reads, and answers as the shards on disk', async () => {
    const context = Buffer.from(JSON.stringify({ edgeURL, uncachedEdgeURL: edgeURL, siteID: 'site', token: 'token' })).toString('base64');
    const before = process.env.NETLIFY_BLOBS_CONTEXT;
    process.env.NETLIFY_BLOBS_CONTEXT = context; // what the Blobs client reads, as Netlify sets it
    try {
      const remote = environmentContext({ POLLEN_DB: db, NETLIFY_BLOBS_CONTEXT: context });
      const local = environmentContext({ POLLEN_DB: db });
      expect(remote.fetching).toBeDefined();
      expect(local.fetching).toBeUndefined();
      const last = dayString(SPAN.to + 2);
      const asks = [
        '/api/health',
        `/api/pollen?city=tulsa&date=${last}`,
        `/api/pollen?date=${last}&timezone=local`,
        `/api/map-data?date=${dayString(SPAN.from + 6)}`,
        '/api/pollen?city=boise',
        '/api/weather?city=boise',
        `/api/pollen-range?cities=tulsa,boise&from=2025-03-26&to=${last}`,
        `/api/pollen-range?cities=tulsa,boise&from=2025-03-26&to=${last}&aggregate=day&timezone=local`,
        `/api/pollen-range?from=2025-03-31T12:00:00Z&to=2025-04-01T12:00:00Z&format=csv`,
        '/api/season?city=tulsa',
        '/api/forecast-skill?city=tulsa',
      ];
      const text = (r: ApiResponse) => ({
        status: r.status,
        headers: r.headers,
        body: typeof r.body === 'string' ? r.body : [...r.body].join(''),
      });
      for (const path of asks) {
        const u = new URL(path, 'http://x.test');
        const req = { method: 'GET', path: u.pathname, query: u.searchParams };
        const got = text(await respondFetched(req, remote));
        // Health is stale (503) on data of 2025, here as in the store.
        expect(got.status, path).toBe(path === '/api/health' ? 503 : 200);
        expect(got, path).toEqual(text(await respond(req, local)));
      }
    } finally {
      if (before === undefined) delete process.env.NETLIFY_BLOBS_CONTEXT;
      else process.env.NETLIFY_BLOBS_CONTEXT = before;
    }
  }, 120_000);

  it("Netlify's own build stages the shards as the deploy's blobs, and its functions read them from the deploy's store", async () => {
    const staged = join(dir, 'staged');
    mkdirSync(join(staged, 'served'), { recursive: true });
    for (const file of ['shards.json', 'site.json']) copyFileSync(join(dir, 'served', file), join(staged, 'served', file));
    const count = stageDeployShards(join(staged, 'served', 'shards.json'), join(dir, 'shards'), staged);
    const manifest = readShardManifest(join(staged, 'served', 'shards.json'))!;
    expect(manifest.store).toBe('deploy');
    expect(count).toBe(new Set(Object.values(manifest.shards)).size);
    // What Netlify Build does with the files it finds there: each one a blob of the deploy's own store
    // (in us-east-2 for this folder, plugins_core/blobs_upload in netlify/build; functions read the deploy's region from their context).
    const files = readdirSync(join(staged, DEPLOY_BLOBS_DIR));
    expect(files.length).toBe(count);
    const deployStore = getDeployStore({
      deployID: '5f6e7d8c9b0a1f2e3d4c5b6a',
      siteID: 'site',
      token: 'token',
      edgeURL,
      uncachedEdgeURL: edgeURL,
      region: 'us-east-2',
    });
    for (const key of files) {
      const data = readFileSync(join(staged, DEPLOY_BLOBS_DIR, key));
      await deployStore.set(key, data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer);
    }
    const context = Buffer.from(
      JSON.stringify({
        edgeURL,
        uncachedEdgeURL: edgeURL,
        siteID: 'site',
        token: 'token',
        deployID: '5f6e7d8c9b0a1f2e3d4c5b6a',
        primaryRegion: 'us-east-2',
      }),
    ).toString('base64');
    const before = process.env.NETLIFY_BLOBS_CONTEXT;
    process.env.NETLIFY_BLOBS_CONTEXT = context;
    try {
      const remote = environmentContext({ POLLEN_DB: join(staged, 'pollen.db'), NETLIFY_BLOBS_CONTEXT: context });
      const local = environmentContext({ POLLEN_DB: db });
      for (const path of ['/api/pollen?city=boise', `/api/map-data?date=${dayString(SPAN.to)}&timezone=local`]) {
        const u = new URL(path, 'http://x.test');
        const req = { method: 'GET', path: u.pathname, query: u.searchParams };
        const got = await respondFetched(req, remote);
        expect(got.status, path).toBe(200);
        expect(got.body, path).toBe((await respond(req, local)).body);
      }
    } finally {
      if (before === undefined) delete process.env.NETLIFY_BLOBS_CONTEXT;
      else process.env.NETLIFY_BLOBS_CONTEXT = before;
    }
  });
});
