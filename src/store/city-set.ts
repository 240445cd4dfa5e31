/**
 * The city set a deployment serves, kept in the store so that render, functions and MCP all read
 * the same one. A slug is never reused for another place: changing the coordinates or zone of a
 * slug that has data is refused; a city dropped from the set keeps its data, unserved.
 */
import { type City, CitySet, cityOf, DEFAULT_CITIES } from '../domain/cities.js';
import type { Db, Row } from './database.js';
import type { Names } from './names.js';

/** A new set moves a slug that already has data somewhere else. */
export class CityConflictError extends Error {}

export interface CitySetChange {
  added: string[];
  removed: string[];
  changed: string[];
}

/** A served row of the city table as a city. */
export const cityOfRow = (r: Row): City =>
  cityOf({
    name: r.name as string,
    slug: r.slug as string,
    state: r.state as string,
    lat: r.lat as number,
    lon: r.lon as number,
    timezone: r.timezone as string,
  });

/** The set served: the cities chosen at ingest, else (none ever chosen) the built-in 40. */
export const citySetOf = (chosen: City[] | undefined): CitySet => (chosen ? new CitySet(chosen) : DEFAULT_CITIES);

export class CityTable {
  private readonly stmt;

  constructor(
    private readonly db: Db,
    private readonly names: Names,
  ) {
    this.stmt = {
      active: db.prepare('SELECT * FROM city WHERE active = 1 AND name IS NOT NULL'),
      bySlug: db.prepare('SELECT * FROM city WHERE slug = ?'),
      hasData: db
        .prepare('SELECT EXISTS (SELECT 1 FROM pollen_day WHERE city_id = @id) OR EXISTS (SELECT 1 FROM weather_day WHERE city_id = @id)')
        .pluck(),
      set: db.prepare('UPDATE city SET name = ?, state = ?, lat = ?, lon = ?, timezone = ?, active = 1 WHERE id = ?'),
      deactivate: db.prepare('UPDATE city SET active = 0 WHERE active = 1'),
      anyServed: db.prepare('SELECT EXISTS (SELECT 1 FROM city WHERE active = 1 AND name IS NOT NULL)').pluck(),
    };
  }

  /** The zone a city is served in (its local days'), or undefined when the set does not serve it. */
  zoneOf(slug: string): string | undefined {
    const row = this.stmt.bySlug.get(slug) as Row | undefined;
    if (row?.active === 1 && row.name !== null) return row.timezone as string;
    return this.stmt.anyServed.get() ? undefined : DEFAULT_CITIES.get(slug)?.timezone;
  }

  /** The set this store serves: the one chosen at ingest, else the built-in 40. */
  set(): CitySet {
    return citySetOf(this.stored());
  }

  /** The chosen set, or undefined when none was ever chosen. */
  stored(): City[] | undefined {
    const rows = this.stmt.active.all() as Row[];
    return rows.length === 0 ? undefined : rows.map(cityOfRow);
  }

  /**
   * Makes `cities` the served set, in one transaction. Throws CityConflictError, changing nothing,
   * when a slug with data would move (other coordinates or zone).
   */
  replace(cities: readonly City[]): CitySetChange {
    return this.db.transaction(() => {
      const before = new Map((this.stored() ?? []).map((c) => [c.slug, c]));
      const conflicts: string[] = [];
      for (const c of cities) {
        const row = this.stmt.bySlug.get(c.slug) as Row | undefined;
        if (!row || row.lat === null || !this.stmt.hasData.get({ id: row.id })) continue;
        if (row.lat !== c.lat || row.lon !== c.lon || row.timezone !== c.timezone) {
          conflicts.push(
            `${c.slug}: its data is for ${row.lat}, ${row.lon} (${row.timezone}); the file says ${c.lat}, ${c.lon} (${c.timezone})`,
          );
        }
      }
      if (conflicts.length > 0) {
        throw new CityConflictError(
          `a slug with data cannot move; give the new place a new slug:\n${conflicts.map((c) => `  ${c}`).join('\n')}`,
        );
      }
      this.stmt.deactivate.run();
      const change: CitySetChange = { added: [], removed: [], changed: [] };
      for (const c of cities) {
        this.stmt.set.run(c.name, c.state, c.lat, c.lon, c.timezone, this.names.id('city', c.slug)!);
        const old = before.get(c.slug);
        if (!old) change.added.push(c.slug);
        else if (old.name !== c.name || old.state !== c.state) change.changed.push(c.slug);
      }
      const slugs = new Set(cities.map((c) => c.slug));
      change.removed = [...before.keys()].filter((s) => !slugs.has(s));
      return change;
    })();
  }
}
