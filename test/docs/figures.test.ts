/**
 * The figures the docs state that the build can measure, measured: the landing page's JavaScript
 * and map geometry, the bulk files' row groups, and the endpoints that take timezone=local.
 * (test/docs/examples.test.ts counts the bulk files.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { takingParam } from '../../src/api/documents/openapi.js';
import { bulkManifestRoute } from '../../src/api/endpoints/bulk-manifest.js';
import { API_ROUTES } from '../../src/api/routes.js';
import { HOUR_MS } from '../../src/domain/dates.js';
import { CACHE_LIMIT_MS, HORIZON_HOURS } from '../../src/forecast/service.js';
import { CITIES_PER_GROUP } from '../../src/output/bulk/months.js';
import { siteFiles } from '../../src/site/build.js';
import { RANGE_SHARDS } from '../../src/store/shards/shard-format.js';
import { ROOT } from '../helpers/cli.js';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/\s+/g, ' ');
const NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, eight: 8, ten: 10, 'a hundred': 100 };

describe('the figures of the docs', () => {
  it("states the landing page's JavaScript and map geometry within a tenth of what the build writes", async () => {
    const files = await siteFiles();
    const kB = (bytes: number) => bytes / 1000;
    const js = files.get('assets/app.js')!;
    const measured = [kB(js.length), kB(gzipSync(js).length), kB(files.get('assets/us-states.json')!.length)];
    const said = /about (\d+) kB of JavaScript \((\d+) kB gzipped\) plus (\d+) kB of map geometry/.exec(read('docs/integrations.md'));
    expect(said, 'docs/integrations.md states the sizes').not.toBeNull();
    const off = said!.slice(1).map((figure, i) => Math.abs(Number(figure) - measured[i]!) / measured[i]!);
    expect(
      Math.max(...off),
      `stated ${said!.slice(1).join(', ')} kB, measured ${measured.map((m) => m.toFixed(1)).join(', ')} kB`,
    ).toBeLessThanOrEqual(0.1);
  });

  it('says how many cities a row group of the bulk files holds as the writer groups them, wherever it says so', () => {
    const texts = {
      'docs/data.md': read('docs/data.md'),
      'docs/decisions.md': read('docs/decisions.md'),
      get_bulk_files: bulkManifestRoute.tool!.description,
    };
    for (const [where, text] of Object.entries(texts)) {
      const said = /row groups of (\w+(?: \w+)?) cities' hours(?: \([^)]*\))?,? or (\w+(?: \w+)?) cities' days/.exec(text);
      expect(said, `${where} says how the files are grouped`).not.toBeNull();
      expect([NUMBERS[said![1]!], NUMBERS[said![2]!]], where).toEqual([
        CITIES_PER_GROUP['pollen-hourly'],
        CITIES_PER_GROUP['pollen-daily'],
      ]);
    }
  });

  it("states the range's read budget in the paging section of docs/api.md as the rows are counted", () => {
    const paging = /\*\*Paging\.\*\*(.*?)```/.exec(read('docs/api.md'))?.[1];
    expect(paging, 'docs/api.md has a paging section').toBeDefined();
    const said = /at most (\d+) city-quarters .*? or at most (\d+) UTC days of every city, whichever reads fewer; .*? past (\d+)/.exec(
      paging!,
    );
    expect(said, 'the paging section states the read budget').not.toBeNull();
    expect(said!.slice(1).map(Number)).toEqual([RANGE_SHARDS, RANGE_SHARDS, RANGE_SHARDS]);
  });

  it('states how many hourly rows a forecast answer holds as the service trims them, not a flat 48', () => {
    const said =
      /answers at most (\d+) hourly rows .*? so an answer holds (\d+) rows less the hours since the fetch: (\d+) to (\d+) rows while the cache is fresh/.exec(
        read('docs/api.md'),
      );
    expect(said, 'docs/api.md states the rows of a forecast').not.toBeNull();
    // Fresh is under CACHE_LIMIT_MS since the fetch, which can be that many hours later by the clock's hour.
    expect(said!.slice(1).map(Number)).toEqual([HORIZON_HOURS, HORIZON_HOURS, HORIZON_HOURS - CACHE_LIMIT_MS / HOUR_MS, HORIZON_HOURS]);
    expect(read('docs/decisions.md')).toContain(`At most ${HORIZON_HOURS} hourly rows`);
  });

  it('lists the endpoints that take timezone=local as the routes take it', () => {
    const routes = takingParam(API_ROUTES, 'timezone');
    for (const file of ['README.md', 'docs/api.md']) {
      const sentence = /`timezone=local` on ((?:`\/[\w/-]+`(?:, | and )?)+)/.exec(read(file));
      expect(sentence, `${file} names them`).not.toBeNull();
      expect([...sentence![1]!.matchAll(/`(\/[\w/-]+)`/g)].map((m) => m[1]).sort(), file).toEqual([...routes].sort());
    }
  });
});
