/**
 * Digests of what a store holds, by day and by city, made in one pass over its tables in key
 * order: a render compares them with the previous build's to reuse the files made from days that
 * did not change (src/render/render-cache.ts). Rows go into the digests as stored, packed; the
 * names the packed bytes refer to by id have a digest of their own.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Db } from './database.js';

export interface StoreDigests {
  /** The sources, labels and species shapes, by id. */
  names: Buffer;
  /** Each day's day values of every city: by UTC day [0] and by local day [1]. */
  values: [Map<number, Buffer>, Map<number, Buffer>];
  /** Each UTC day's hours of every city. */
  pollen: Map<number, Buffer>;
  /** Each UTC day's weather of every city. */
  weather: Map<number, Buffer>;
  /** Each city's day values, weather days and forecast skill. */
  cities: Map<string, Buffer>;
}

type Raw = unknown[];

/** One digest per key, each fed as rows come. */
class Digests<K> {
  private readonly open = new Map<K, Hash>();

  of(key: K): Hash {
    let hash = this.open.get(key);
    if (!hash) this.open.set(key, (hash = createHash('sha256')));
    return hash;
  }

  done(): Map<K, Buffer> {
    return new Map([...this.open].map(([key, hash]) => [key, hash.digest()]));
  }
}

/** Reads the digests of the store's tables (a few seconds' thousandths per thousand city-days). */
export function storeDigests(db: Db): StoreDigests {
  const slugs = new Map(db.prepare('SELECT id, slug FROM city').raw().all() as Array<[number, string]>);
  const names = createHash('sha256');
  const nameRows = db.prepare(
    "SELECT 's' || id || ' ' || name FROM source UNION ALL SELECT 'l' || id || ' ' || text FROM label UNION ALL SELECT 'k' || id || ' ' || keys FROM species_shape",
  );
  for (const line of nameRows.pluck().iterate() as Iterable<string>) names.update(`${line}\n`);

  const values: [Digests<number>, Digests<number>] = [new Digests(), new Digests()];
  const [pollen, weather, cities] = [new Digests<number>(), new Digests<number>(), new Digests<string>()];
  // In key order: each city's rows together, each of its days in order.
  for (const [city, cut, day, data] of db.prepare('SELECT city_id, cut, day, data FROM day_value').raw().iterate() as Iterable<Raw>) {
    const slug = slugs.get(city as number)!;
    const line = `v${cut} ${day}\n`;
    cities
      .of(slug)
      .update(line)
      .update(data as Uint8Array);
    values[cut as 0 | 1]
      .of(day as number)
      .update(`${slug} ${line}`)
      .update(data as Uint8Array);
  }
  const weatherRows = db.prepare('SELECT city_id, day, source_id, status, fetched_at, data FROM weather_day').raw();
  for (const [city, day, source, status, fetched, data] of weatherRows.iterate() as Iterable<Raw>) {
    const slug = slugs.get(city as number)!;
    const line = `w${day} ${source} ${status} ${fetched}\n`;
    cities
      .of(slug)
      .update(line)
      .update(data as Uint8Array);
    weather
      .of(day as number)
      .update(`${slug} ${line}`)
      .update(data as Uint8Array);
  }
  // Each city's forecast skill, as a render wrote it into the served store (its forecast-skill answer).
  for (const [city, skill] of db.prepare('SELECT city_id, skill FROM forecast_skill').raw().iterate() as Iterable<Raw>)
    cities
      .of(slugs.get(city as number)!)
      .update('s\n')
      .update(skill as Uint8Array);
  // Not when they were fetched: a day fetched again with the same hours answers the same.
  const pollenRows = db.prepare('SELECT city_id, day, source_id, zone_id, status, mask, data FROM pollen_day').raw();
  for (const [city, day, source, zone, status, mask, data] of pollenRows.iterate() as Iterable<Raw>) {
    const hash = pollen.of(day as number).update(`${slugs.get(city as number)} p${source} ${zone} ${status} ${mask}\n`);
    if (data !== null) hash.update(data as Uint8Array);
  }
  return {
    names: names.digest(),
    values: [values[0].done(), values[1].done()],
    pollen: pollen.done(),
    weather: weather.done(),
    cities: cities.done(),
  };
}
