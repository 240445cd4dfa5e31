/**
 * Migration 5: the day values of every city-day, by UTC day and by the city's local day in the
 * zone it is served in (store/day-values.ts), computed from the hours the store holds.
 */
import { Names, type Db } from './database.js';
import { CityTable } from './cities.js';
import { DayCache } from './day-cache.js';
import { DayValuesTable } from './day-values.js';
import { PollenDays } from './pollen-days.js';
import { SpeciesShapes } from './species-shapes.js';

export function migrateToDayValues(db: Db): void {
  db.exec(`
    CREATE TABLE day_value (
      city_id INTEGER NOT NULL REFERENCES city(id),
      cut INTEGER NOT NULL CHECK (cut IN (0, 1)),  -- 0 the UTC day, 1 the city's local day
      day INTEGER NOT NULL,                        -- days since 1970-01-01, of the cut
      data BLOB NOT NULL,                          -- the values, packed
      PRIMARY KEY (city_id, cut, day)
    ) WITHOUT ROWID;
  `);
  // No index by day: a date's values across cities are read city by city through the primary key
  // (day-values.ts, \`across\`), as fast as an index would make it, without its 3 MB at 200 cities.
  const names = new Names(db, false);
  const shapes = new SpeciesShapes(db);
  const values = new DayValuesTable(db, names, shapes, new PollenDays(db, names, shapes, new DayCache(), false));
  const cities = new CityTable(db, names);
  for (const slug of db.prepare('SELECT DISTINCT c.slug FROM pollen_day p JOIN city c ON c.id = p.city_id').pluck().all() as string[]) {
    values.rebuild(slug, cities.zoneOf(slug));
  }
}
