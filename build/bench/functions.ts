/**
 * B6 (cold start of each function: import to first response, in a fresh Node 22 process, in its
 * archive unzipped, its shards in a BlobsServer on loopback) and B8's bundle half (each archive's
 * size), from the archives zip-it-and-ship-it makes with this netlify.toml (build/bundle): the
 * functions Netlify would ship; and B18, answers read from those shards (shard-reads.ts).
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { getStore } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import { SHARD_STORE } from '../../src/deploy-data/remote-shards.js';
import { readShardManifest, shardFolderPath, shardManifestPath } from '../../src/deploy-data/shard-folder.js';
import { uploadShards } from '../../src/deploy-data/shard-upload.js';
import { type Archive, bundleFunctions, type Call, invoke, unzipReadOnly } from '../bundle/bundle.js';
import { ensureToolchain, unsupported } from '../bundle/toolchain.js';
import { type Measure, mb, ms } from './measure.js';
import { shardReadBenchmarks } from './shard-reads.js';

/** The most an archive may weigh: code and the site's small files, never the data. */
const ARCHIVE_TARGET_BYTES = 5 * 1024 * 1024;

const mcp = (method: string): Call => ({
  url: 'https://bench.test/mcp',
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }),
});
const REQUESTS: Record<string, Call> = {
  fallback: { url: 'https://bench.test/data/pollen/by-date/1999-01-01.json' },
  'pollen-range': { url: 'https://bench.test/api/pollen-range?from=2024-03-01&to=2024-03-02' },
  forecast: { url: 'https://bench.test/api/forecast?city=tulsa' },
  mcp: mcp('tools/list'),
  health: { url: 'https://bench.test/api/health' },
  // A ZIP code: the cold start includes loading the ZIP table.
  nearest: { url: 'https://bench.test/api/nearest?zip=74103' },
};
/** 503 is health's answer for data older than a day and a half, as the fixed workload is. */
const ANSWERS: Record<string, number[]> = { health: [200, 503] };

/** One function's cold start in its unzipped archive (median of 3 fresh processes) and its archive's size. */
async function archiveBenchmarks(archive: Archive, work: string, env: Record<string, string>): Promise<Measure[]> {
  const unzipped = join(work, 'unzipped', archive.name);
  unzipReadOnly(archive.path, unzipped);
  const runs: number[] = [];
  let node = '';
  for (let i = 0; i < 3; i++) {
    const result = await invoke(unzipped, [REQUESTS[archive.name]!], env);
    const status = result.answers[0]!.status;
    if (!(ANSWERS[archive.name] ?? [200]).includes(status))
      throw new Error(`${archive.name} answered ${status} in the cold-start probe: ${result.answers[0]!.body.slice(0, 300)}`);
    runs.push(result.coldMs);
    node = result.node;
  }
  return [
    {
      id: 'B6',
      what: `${archive.name}: cold start in its unzipped archive on Node ${node}, import to first response (median of 3 fresh processes)`,
      value: ms(runs.sort((a, b) => a - b)[1]!),
      baseline: '-',
      ratio: null,
      target: 'reported',
      met: null,
    },
    {
      id: 'B8',
      what: `${archive.name}: the archive zip-it-and-ship-it makes (${archive.bundler}, ${archive.runtimeVersion})`,
      value: mb(archive.bytes),
      baseline: `${mb(ARCHIVE_TARGET_BYTES)} (functions carry code, not data; Netlify's limit is 50 MB)`,
      ratio: archive.bytes / ARCHIVE_TARGET_BYTES,
      target: '<= 1x',
      met: archive.bytes <= ARCHIVE_TARGET_BYTES,
    },
  ];
}

/** Bundles the functions with the shard manifest render left beside `db`, uploads the shards to a BlobsServer, and measures each (B6, B8), the upload (B19) and the reads (B18). */
export async function functionBenchmarks(db: string, dir: string): Promise<Measure[]> {
  const why = unsupported();
  if (why)
    return [
      {
        id: 'B6',
        what: `functions as Netlify bundles them: skipped, ${why}`,
        value: '-',
        baseline: '-',
        ratio: null,
        target: 'reported',
        met: null,
      },
    ];
  process.stderr.write(`bench: ${ensureToolchain()}\n`);
  const work = join(dir, 'functions');
  mkdirSync(work, { recursive: true });
  for (const d of [dir, work]) chmodSync(d, 0o755); // the functions run as nobody under root: they must reach their folders
  const archives = bundleFunctions(dirname(db), join(work, 'zipped'));
  const blobs = new BlobsServer({ directory: join(work, 'blobs'), token: 'token', logger: () => {} });
  const url = `http://127.0.0.1:${(await blobs.start()).port}`;
  const env = {
    NETLIFY_BLOBS_CONTEXT: Buffer.from(JSON.stringify({ edgeURL: url, uncachedEdgeURL: url, siteID: 'bench', token: 'token' })).toString(
      'base64',
    ),
  };
  const measures: Measure[] = [];
  try {
    // As the scheduled rebuild does before it deploys: the shards the functions read, in the site's Blobs.
    const shardStore = getStore({
      name: SHARD_STORE,
      siteID: 'bench',
      token: 'token',
      edgeURL: url,
      uncachedEdgeURL: url,
      consistency: 'strong',
    });
    const uploaded = await uploadShards(
      shardStore,
      shardFolderPath(db),
      readShardManifest(shardManifestPath(db))!,
      new Date().toISOString(),
    );
    measures.push({
      id: 'B19',
      what: `shards a first deploy uploads, ${uploaded.uploaded} of them, to a BlobsServer on loopback`,
      value: mb(uploaded.bytes),
      baseline: '-',
      ratio: null,
      target: 'reported',
      met: null,
    });
    measures.push(...(await shardReadBenchmarks(db, env.NETLIFY_BLOBS_CONTEXT)));
    for (const archive of archives) measures.push(...(await archiveBenchmarks(archive, work, env)));
  } finally {
    await blobs.stop();
  }
  return measures;
}
