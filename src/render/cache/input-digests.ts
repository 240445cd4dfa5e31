/**
 * What each part of a render is made from, as a digest: a city's files, a date's, a month's bulk
 * files. Made once per render from the served store's digests (store/digests.ts), in the render's
 * own thread; a part whose digest the render cache holds is reused (render-cache.ts).
 */
import { createHash } from 'node:crypto';
import type { Unit } from '../../api/contract/static-forms.js';
import { dayString } from '../../domain/dates.js';
import { bulkColumns } from '../../output/bulk/columns.js';
import { BULK_KINDS, type Month, WRITER } from '../../output/bulk/months.js';
import type { StoreDigests } from '../../store/digests.js';
import type { Store } from '../../store/store.js';

/** A unit with what it is made from: its key in the render cache, and the digest of its inputs. */
export interface PlannedUnit {
  unit: Unit;
  inputs?: { key: string; digest: string };
}

const NONE = Buffer.alloc(32);

export class RenderInputs {
  private readonly digests: StoreDigests;
  /** What every unit depends on besides its days: the code, the city set and the names packed days refer to by id. */
  private readonly salt: Buffer;
  /** Each bulk kind's columns, read with the digests (a broken store fails where its units do, not here). */
  private readonly columns: () => string;
  /** The cities served, by slug. */
  private readonly slugs: string;

  constructor(store: Store, code: string) {
    this.digests = store.checks.digests();
    this.slugs = store.cities.set().slugs.join(',');
    this.salt = createHash('sha256')
      .update(`${code}\n${JSON.stringify(store.cities.set().list)}\n`)
      .update(this.digests.names)
      .digest();
    let columns: string | undefined;
    let failure: unknown;
    try {
      const fields = bulkColumns(store);
      columns = [...BULK_KINDS, 'seasons' as const]
        .map((kind) => `${kind}:${fields[kind].map((f) => `${f.name} ${f.type}`).join(',')}\n`)
        .join('');
    } catch (error) {
      failure = error;
    }
    this.columns = () => {
      if (columns === undefined) throw failure;
      return columns;
    };
  }

  /**
   * A unit with its key and digest: a city's files are made from its day values, weather and forecast skill; a
   * date's from every city's day values of the date and the two days before it (a map's series),
   * in both cuts, its weather, and its hours when it has city-day files. The files made once are
   * always rendered (they are few and cheap).
   */
  plan(unit: Unit): PlannedUnit {
    if (unit.kind === 'once') return { unit };
    const hash = createHash('sha256').update(this.salt);
    const d = this.digests;
    if (unit.kind === 'city') {
      hash.update(d.cities.get(unit.city) ?? NONE);
      return { unit, inputs: { key: `city:${unit.city}`, digest: hash.digest('hex') } };
    }
    const day = unit.day;
    for (const values of d.values) for (let x = day - 2; x <= day; x++) hash.update(values.get(x) ?? NONE);
    hash.update(d.weather.get(day) ?? NONE);
    if (unit.cityDays) hash.update(d.pollen.get(day) ?? NONE);
    return { unit, inputs: { key: `date:${dayString(day)}${unit.cityDays ? ':city-days' : ''}`, digest: hash.digest('hex') } };
  }

  /**
   * The digest of what a month's bulk files are made from: the writer, each kind's columns, and
   * each day's hours, day values and weather, with the names their packed bytes refer to by id.
   * The same digest makes the same bytes; the manifest records it (`inputs_sha256`).
   */
  month(month: Month): string {
    const hash = createHash('sha256').update(`${WRITER}\n${dayString(month.from)}..${dayString(month.to)}\n${this.columns()}`);
    hash.update(this.digests.names);
    const d = this.digests;
    for (let day = month.from; day <= month.to; day++) {
      for (const part of [d.pollen.get(day), d.values[0].get(day), d.weather.get(day)]) hash.update(part ?? NONE);
    }
    return hash.digest('hex');
  }

  /**
   * The digest of what the seasons file is made from: the writer, its columns, the cities served
   * (each counts in a row group, rows or none), and every UTC day's day values.
   */
  seasons(): string {
    const hash = createHash('sha256').update(`${WRITER}\nseasons\n${this.columns()}${this.slugs}\n`).update(this.digests.names);
    for (const [day, digest] of [...this.digests.values[0]].sort((a, b) => a[0] - b[0])) hash.update(`${day}\n`).update(digest);
    return hash.digest('hex');
  }
}
