import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BulkKind } from '../../src/domain/schemas.js';
import { jsonGetter } from '../helpers/api-get.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { useSite } from '../helpers/site.js';

const site = useSite();
const getJson = jsonGetter(site);

describe('GET /data/bulk/index.json', () => {
  it('lists the served days and every kind with its columns, as the OpenAPI document says', async () => {
    const { status, body } = await getJson('/data/bulk/index.json');
    expect(status).toBe(200);
    expectMatchesOpenApi('/data/bulk/index.json', 200, body);
    expect([body.from, body.to]).toEqual(['2025-04-01', '2025-04-10']);
    expect(Object.keys(body.kinds).sort()).toEqual([...BulkKind.options].sort());
    for (const [kind, k] of Object.entries(body.kinds) as Array<[string, { columns: Array<{ name: string }> }]>)
      expect(k.columns.length, kind).toBeGreaterThan(0);
  });

  it('serves every file it lists with its bytes and SHA-256, and each gzip CSV with its rows', async () => {
    const { body } = await getJson('/data/bulk/index.json');
    expect(body.files.length).toBeGreaterThan(0);
    for (const f of body.files) {
      const res = await site.get(f.path);
      expect(res.status, f.path).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length, f.path).toBe(f.bytes);
      expect(createHash('sha256').update(bytes).digest('hex'), f.path).toBe(f.sha256);
      if (f.format === 'csv.gz') {
        const lines = gunzipSync(bytes).toString('utf8').trimEnd().split('\n');
        expect(lines[0]!.split(','), f.path).toEqual(f.columns);
        expect(lines.length - 1, f.path).toBe(f.rows);
      }
    }
  });

  it('answers a month it does not list with NO_ENDPOINT', async () => {
    const { status, body } = await getJson('/data/bulk/pollen-hourly-1999-01.parquet');
    expect(status).toBe(404);
    expect(body.code).toBe('NO_ENDPOINT');
  });
});
