/**
 * Versioned schema. Each entry upgrades the store by one `user_version`; entries are never edited
 * once released, only appended. The snapshot in Netlify Blobs is the only history there is, so
 * every migration keeps every value.
 *
 * A migration means the same thing forever: it is the SQL it ran, or (3) frozen code that imports
 * no table module, so the database module is handed this list (store.ts) and nothing here loads
 * the tables. What the store derives from its rows with today's code (the day values) is not made
 * by a migration but kept as derived data, renewed when the code's derivation changes (derived.ts).
 *
 * Compactness matters because the file ships inside the functions: since version 3 a city-day is
 * one row WITHOUT ROWID keyed by (city, day), its 24 hours packed in one blob (store/codec.ts),
 * species split into a shared key shape and packed values, and texts kept once in `label`.
 */
import type { Migration } from './database.js';
import { migrateToPackedDays } from './migrate-v3.js';

export const MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE city (id INTEGER PRIMARY KEY, slug TEXT NOT NULL UNIQUE);
  CREATE TABLE source (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
  CREATE TABLE species_shape (id INTEGER PRIMARY KEY, keys TEXT NOT NULL UNIQUE);

  -- One row per city and UTC day fetched; its presence marks the day as complete.
  CREATE TABLE pollen_day (
    city_id INTEGER NOT NULL REFERENCES city(id),
    day INTEGER NOT NULL,              -- days since 1970-01-01
    source_id INTEGER NOT NULL REFERENCES source(id),
    timezone TEXT,
    hours INTEGER NOT NULL,            -- hourly rows stored for the day
    fetched_at INTEGER NOT NULL,       -- ms since epoch
    PRIMARY KEY (city_id, day)
  ) WITHOUT ROWID;
  CREATE INDEX pollen_day_by_day ON pollen_day (day);

  CREATE TABLE pollen_hour (
    city_id INTEGER NOT NULL,
    hour INTEGER NOT NULL,             -- hours since 1970-01-01T00:00Z
    tree REAL, grass REAL, weed REAL,
    total REAL NOT NULL,
    shape_id INTEGER REFERENCES species_shape(id),
    species BLOB,                      -- packed values; NULL with shape_id NULL when none
    PRIMARY KEY (city_id, hour)
  ) WITHOUT ROWID;

  CREATE TABLE weather_day (
    city_id INTEGER NOT NULL REFERENCES city(id),
    day INTEGER NOT NULL,
    source_id INTEGER NOT NULL REFERENCES source(id),
    fetched_at INTEGER NOT NULL,
    tz TEXT, timezone TEXT,
    temp_min_c REAL, temp_max_c REAL, temp_day_c REAL, feels_like_day_c REAL,
    humidity INTEGER, pressure_hpa INTEGER, wind_speed_ms REAL, wind_deg INTEGER,
    clouds_pct INTEGER, precip_mm REAL, uvi REAL, weather_main TEXT, weather_desc TEXT,
    aqi INTEGER CHECK (aqi BETWEEN 1 AND 5),
    aqi_pm2_5 REAL, aqi_pm10 REAL, aqi_o3 REAL, aqi_no2 REAL, aqi_so2 REAL, aqi_co REAL,
    PRIMARY KEY (city_id, day)
  ) WITHOUT ROWID;
  CREATE INDEX weather_day_by_day ON weather_day (day);

  CREATE TABLE forecast_cache (
    city_id INTEGER PRIMARY KEY REFERENCES city(id),
    source_id INTEGER NOT NULL REFERENCES source(id),
    fetched_at INTEGER NOT NULL,
    rows TEXT NOT NULL                 -- JSON array of forecast rows
  );

  -- Upstream calls per provider, UTC day and purpose, for daily budgets.
  CREATE TABLE upstream_call (
    provider TEXT NOT NULL,
    day TEXT NOT NULL,
    purpose TEXT NOT NULL CHECK (purpose IN ('ingest', 'forecast')),
    calls INTEGER NOT NULL,
    PRIMARY KEY (provider, day, purpose)
  ) WITHOUT ROWID;
  `,
  // 2: the status ingest gave each city-day (1 complete, 2 partial, 3 empty; see domain/day-status.ts),
  // derived for existing rows from what they hold, and a log of ingest runs.
  `
  ALTER TABLE pollen_day ADD COLUMN status INTEGER NOT NULL DEFAULT 1 CHECK (status IN (1, 2, 3));
  UPDATE pollen_day SET status = CASE WHEN hours >= 24 THEN 1 WHEN hours > 0 THEN 2 ELSE 3 END;
  ALTER TABLE weather_day ADD COLUMN status INTEGER NOT NULL DEFAULT 1 CHECK (status IN (1, 3));
  UPDATE weather_day SET status = CASE WHEN coalesce(
    temp_min_c, temp_max_c, temp_day_c, feels_like_day_c, humidity, pressure_hpa, wind_speed_ms, wind_deg,
    clouds_pct, precip_mm, uvi, weather_main, weather_desc, aqi, aqi_pm2_5, aqi_pm10, aqi_o3, aqi_no2, aqi_so2, aqi_co
  ) IS NULL THEN 3 ELSE 1 END;

  CREATE TABLE ingest_run (
    id INTEGER PRIMARY KEY,
    started_at INTEGER NOT NULL,       -- ms since epoch
    finished_at INTEGER NOT NULL,
    pollen TEXT NOT NULL,              -- provider ids
    weather TEXT,
    counts TEXT NOT NULL               -- JSON: city-days per status
  );
  `,
  // 3: the store at 200 cities x 2 years: one row per city-day with its hours packed, weather
  // packed, texts once in `label`, and the deployer's city set in `city` (store/codec.ts).
  migrateToPackedDays,
  // 4: the local forecast cache holds hours as ingest normalises them (with the zone the provider
  // gave), no longer answer rows. It is a cache, refreshed on the next request: what it held is dropped.
  `
  DROP TABLE forecast_cache;
  CREATE TABLE forecast_cache (
    city_id INTEGER PRIMARY KEY REFERENCES city(id),
    source_id INTEGER NOT NULL REFERENCES source(id),
    fetched_at INTEGER NOT NULL,       -- ms since epoch
    zone TEXT,                         -- the IANA zone the provider gave
    hours TEXT NOT NULL                -- JSON array of {hour, tree, grass, weed, total, species}
  );
  `,
  // 5: each city-day's daily values, by UTC day and by the city's local day (store/day-values-table.ts).
  // Derived data: made from the hours by the store (derived.ts), kept by ingest with the hours.
  // (This migration once computed them itself, with the table classes of its day; a store it
  // upgraded holds the same values the store now makes.) No index by day: a date's values across
  // cities are read city by city through the primary key (day-values-table.ts, `across`), as fast as an
  // index would make it, without its 3 MB at 200 cities.
  `
  CREATE TABLE day_value (
    city_id INTEGER NOT NULL REFERENCES city(id),
    cut INTEGER NOT NULL CHECK (cut IN (0, 1)),  -- 0 the UTC day, 1 the city's local day
    day INTEGER NOT NULL,                        -- days since 1970-01-01, of the cut
    data BLOB NOT NULL,                          -- the values, packed
    PRIMARY KEY (city_id, cut, day)
  ) WITHOUT ROWID;
  `,
  // 6: which version of the code's derivation made each kind of derived data (derived.ts); a store
  // without a row for a kind, as every store before this version, has it made again once.
  `
  CREATE TABLE derived (
    name TEXT PRIMARY KEY,
    version INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  // 7: every forecast kept as issued (store/issued-forecasts.ts): what it said of each UTC day it
  // covered enough, not its hours; and, in the served store a render writes, each city's forecast
  // skill (store/skills-table.ts), which the served store carries instead of the forecasts.
  `
  CREATE TABLE forecast_issued (
    city_id INTEGER NOT NULL REFERENCES city(id),
    issued_at INTEGER NOT NULL,        -- ms since epoch
    source_id INTEGER NOT NULL REFERENCES source(id),
    origin INTEGER NOT NULL CHECK (origin IN (0, 1, 2)),  -- 0 the build's call, 1 the forecast function's, 2 made again
    days BLOB NOT NULL,                -- each UTC day: its lead, hours, and each category's mean and level, packed
    PRIMARY KEY (city_id, issued_at)
  ) WITHOUT ROWID;

  CREATE TABLE forecast_skill (
    city_id INTEGER PRIMARY KEY REFERENCES city(id),
    skill BLOB NOT NULL                -- the answer of /api/forecast-skill?city=, JSON, deflated
  );
  `,
  // 8: each day's digest of the day tables' rows (store/digests.ts), kept in the store so that a
  // render reads 730 digests a table instead of every row. Any write to a day's rows marks the day
  // stale (the triggers: every writer, whatever its path); a writer digests the stale days again
  // once it is done (Store.refreshDigests), a reader digests those still stale itself. Parts: 0 and
  // 1 the day values by UTC and local day (the cut), 2 the hours, 3 the weather. Every day held
  // starts stale. An upsert's conflict clause overrides a trigger's OR IGNORE, so the marks are
  // upserts of their own, after `WHERE true` (https://sqlite.org/lang_createtrigger.html, "the
  // conflict handling policy of the outer statement is used instead"; https://sqlite.org/lang_upsert.html,
  // the parsing ambiguity). A REPLACE that deletes a row in the way fires no delete trigger
  // (https://sqlite.org/lang_conflict.html), but that row has the new one's key, so its day is marked.
  `
  CREATE TABLE day_digest (
    part INTEGER NOT NULL CHECK (part BETWEEN 0 AND 3),
    day INTEGER NOT NULL,
    digest BLOB NOT NULL,              -- SHA-256 of the day's rows of every city (digests.ts)
    PRIMARY KEY (part, day)
  ) WITHOUT ROWID;
  CREATE TABLE day_digest_stale (
    part INTEGER NOT NULL,
    day INTEGER NOT NULL,
    PRIMARY KEY (part, day)
  ) WITHOUT ROWID;
  CREATE TRIGGER day_value_added AFTER INSERT ON day_value BEGIN INSERT INTO day_digest_stale SELECT NEW.cut, NEW.day WHERE true ON CONFLICT DO NOTHING; END;
  CREATE TRIGGER day_value_changed AFTER UPDATE ON day_value BEGIN
    INSERT INTO day_digest_stale SELECT OLD.cut, OLD.day WHERE true ON CONFLICT DO NOTHING;
    INSERT INTO day_digest_stale SELECT NEW.cut, NEW.day WHERE true ON CONFLICT DO NOTHING;
  END;
  CREATE TRIGGER day_value_removed AFTER DELETE ON day_value BEGIN INSERT INTO day_digest_stale SELECT OLD.cut, OLD.day WHERE true ON CONFLICT DO NOTHING; END;
  CREATE TRIGGER pollen_day_added AFTER INSERT ON pollen_day BEGIN INSERT INTO day_digest_stale SELECT 2, NEW.day WHERE true ON CONFLICT DO NOTHING; END;
  CREATE TRIGGER pollen_day_changed AFTER UPDATE ON pollen_day BEGIN
    INSERT INTO day_digest_stale SELECT 2, OLD.day WHERE true ON CONFLICT DO NOTHING;
    INSERT INTO day_digest_stale SELECT 2, NEW.day WHERE true ON CONFLICT DO NOTHING;
  END;
  CREATE TRIGGER pollen_day_removed AFTER DELETE ON pollen_day BEGIN INSERT INTO day_digest_stale SELECT 2, OLD.day WHERE true ON CONFLICT DO NOTHING; END;
  CREATE TRIGGER weather_day_added AFTER INSERT ON weather_day BEGIN INSERT INTO day_digest_stale SELECT 3, NEW.day WHERE true ON CONFLICT DO NOTHING; END;
  CREATE TRIGGER weather_day_changed AFTER UPDATE ON weather_day BEGIN
    INSERT INTO day_digest_stale SELECT 3, OLD.day WHERE true ON CONFLICT DO NOTHING;
    INSERT INTO day_digest_stale SELECT 3, NEW.day WHERE true ON CONFLICT DO NOTHING;
  END;
  CREATE TRIGGER weather_day_removed AFTER DELETE ON weather_day BEGIN INSERT INTO day_digest_stale SELECT 3, OLD.day WHERE true ON CONFLICT DO NOTHING; END;
  INSERT INTO day_digest_stale SELECT DISTINCT cut, day FROM day_value;
  INSERT INTO day_digest_stale SELECT DISTINCT 2, day FROM pollen_day;
  INSERT INTO day_digest_stale SELECT DISTINCT 3, day FROM weather_day;
  `,
  // 9: no index by day on the pollen and weather days, as day_value has none (5): a day's rows
  // across cities are read city by city through the primary key (pollen-days.ts, weather-days.ts,
  // digests.ts). An ingest writes a city's days a request at a time, and each commit wrote again
  // every page of the index its days fall on (about 20 at 200 cities, where the rows themselves
  // fill a few): at 200 cities x 730 days the index pages were 30% of the bytes an ingest wrote,
  // and the indexes 2.8 MB of the file.
  `
  DROP INDEX pollen_day_by_day;
  DROP INDEX weather_day_by_day;
  `,
  // 10: every outlook kept as issued, with the references its issue day knew (store/outlooks-table.ts):
  // one row per city and issue day; and climatology kept by target day, made by the first issue
  // that reached it. Only the build's store holds them (Store.keepServedDays drops them from the
  // copy the functions carry). The forecasts made again (origin 2: the sample's, which it can
  // issue again at will) are dropped, to be made again with daily means to a thousandth.
  `
  CREATE TABLE outlook_issued (
    city_id INTEGER NOT NULL REFERENCES city(id),
    issue_day INTEGER NOT NULL,        -- days since 1970-01-01
    source_id INTEGER NOT NULL REFERENCES source(id),
    origin INTEGER NOT NULL CHECK (origin IN (0, 2)),  -- 0 a build's (served), 2 made again (never served)
    data BLOB NOT NULL,                -- each graded category: season state, persistence, the outlook's level counts, what was served
    PRIMARY KEY (city_id, issue_day)
  ) WITHOUT ROWID;

  CREATE TABLE climatology_issued (
    city_id INTEGER NOT NULL REFERENCES city(id),
    day INTEGER NOT NULL,              -- the target day
    data BLOB NOT NULL,                -- each graded category: level counts of its members, and the median day
    PRIMARY KEY (city_id, day)
  ) WITHOUT ROWID;

  DELETE FROM forecast_issued WHERE origin = 2;

  -- The days' digests (8) cover the kept rows too, by day: 4 the forecasts issued that UTC day, 5 the
  -- outlooks issued that day, 6 the climatologies of that target day. A render reuses a month of
  -- forecast pairs, and a closed season year's scores, while their days' digests are unchanged.
  CREATE TABLE day_digest_next (
    part INTEGER NOT NULL CHECK (part BETWEEN 0 AND 6),
    day INTEGER NOT NULL,
    digest BLOB NOT NULL,
    PRIMARY KEY (part, day)
  ) WITHOUT ROWID;
  INSERT INTO day_digest_next SELECT part, day, digest FROM day_digest;
  DROP TABLE day_digest;
  ALTER TABLE day_digest_next RENAME TO day_digest;
  CREATE TRIGGER forecast_issued_added AFTER INSERT ON forecast_issued BEGIN INSERT INTO day_digest_stale SELECT 4, NEW.issued_at / 86400000 WHERE true ON CONFLICT DO NOTHING; END;
  CREATE TRIGGER forecast_issued_changed AFTER UPDATE ON forecast_issued BEGIN
    INSERT INTO day_digest_stale SELECT 4, OLD.issued_at / 86400000 WHERE true ON CONFLICT DO NOTHING;
    INSERT INTO day_digest_stale SELECT 4, NEW.issued_at / 86400000 WHERE true ON CONFLICT DO NOTHING;
  END;
  CREATE TRIGGER forecast_issued_removed AFTER DELETE ON forecast_issued BEGIN INSERT INTO day_digest_stale SELECT 4, OLD.issued_at / 86400000 WHERE true ON CONFLICT DO NOTHING; END;
  CREATE TRIGGER outlook_issued_added AFTER INSERT ON outlook_issued BEGIN INSERT INTO day_digest_stale SELECT 5, NEW.issue_day WHERE true ON CONFLICT DO NOTHING; END;
  CREATE TRIGGER outlook_issued_changed AFTER UPDATE ON outlook_issued BEGIN
    INSERT INTO day_digest_stale SELECT 5, OLD.issue_day WHERE true ON CONFLICT DO NOTHING;
    INSERT INTO day_digest_stale SELECT 5, NEW.issue_day WHERE true ON CONFLICT DO NOTHING;
  END;
  CREATE TRIGGER outlook_issued_removed AFTER DELETE ON outlook_issued BEGIN INSERT INTO day_digest_stale SELECT 5, OLD.issue_day WHERE true ON CONFLICT DO NOTHING; END;
  CREATE TRIGGER climatology_issued_added AFTER INSERT ON climatology_issued BEGIN INSERT INTO day_digest_stale SELECT 6, NEW.day WHERE true ON CONFLICT DO NOTHING; END;
  CREATE TRIGGER climatology_issued_changed AFTER UPDATE ON climatology_issued BEGIN
    INSERT INTO day_digest_stale SELECT 6, OLD.day WHERE true ON CONFLICT DO NOTHING;
    INSERT INTO day_digest_stale SELECT 6, NEW.day WHERE true ON CONFLICT DO NOTHING;
  END;
  CREATE TRIGGER climatology_issued_removed AFTER DELETE ON climatology_issued BEGIN INSERT INTO day_digest_stale SELECT 6, OLD.day WHERE true ON CONFLICT DO NOTHING; END;
  INSERT INTO day_digest_stale SELECT DISTINCT 4, issued_at / 86400000 FROM forecast_issued WHERE true ON CONFLICT DO NOTHING;
  `,
  // 11: a city-day from a provider that gives days, not hours (Atmospore): \`daily\` 1, no hour in
  // its mask, and its one value packed in \`data\` as an hour would be (codec.ts, the mask's first
  // bit), so that no hourly reader ever finds an hour in it; \`levels\`, the provider's own levels
  // in its words (JSON), kept apart from NAB's.
  `
  ALTER TABLE pollen_day ADD COLUMN daily INTEGER NOT NULL DEFAULT 0 CHECK (daily IN (0, 1));
  ALTER TABLE pollen_day ADD COLUMN levels TEXT;

  -- Each provider of a chain keeps its own forecasts, issued at the same instant as another's.
  CREATE TABLE forecast_issued_next (
    city_id INTEGER NOT NULL REFERENCES city(id),
    issued_at INTEGER NOT NULL,
    source_id INTEGER NOT NULL REFERENCES source(id),
    origin INTEGER NOT NULL CHECK (origin IN (0, 1, 2)),
    days BLOB NOT NULL,
    PRIMARY KEY (city_id, issued_at, source_id)
  ) WITHOUT ROWID;
  INSERT INTO forecast_issued_next SELECT city_id, issued_at, source_id, origin, days FROM forecast_issued;
  DROP TABLE forecast_issued;
  ALTER TABLE forecast_issued_next RENAME TO forecast_issued;
  CREATE TRIGGER forecast_issued_added AFTER INSERT ON forecast_issued BEGIN INSERT INTO day_digest_stale SELECT 4, NEW.issued_at / 86400000 WHERE true ON CONFLICT DO NOTHING; END;
  CREATE TRIGGER forecast_issued_changed AFTER UPDATE ON forecast_issued BEGIN
    INSERT INTO day_digest_stale SELECT 4, OLD.issued_at / 86400000 WHERE true ON CONFLICT DO NOTHING;
    INSERT INTO day_digest_stale SELECT 4, NEW.issued_at / 86400000 WHERE true ON CONFLICT DO NOTHING;
  END;
  CREATE TRIGGER forecast_issued_removed AFTER DELETE ON forecast_issued BEGIN INSERT INTO day_digest_stale SELECT 4, OLD.issued_at / 86400000 WHERE true ON CONFLICT DO NOTHING; END;
  `,
  // 12: the local forecast cache holds one forecast per city and provider, so that the providers of
  // a chain each keep theirs (the one that answered last no longer replaces another's); and a daily
  // provider's days beside the hours. It is a cache, refreshed on the next request: what it held is dropped.
  `
  DROP TABLE forecast_cache;
  CREATE TABLE forecast_cache (
    city_id INTEGER NOT NULL REFERENCES city(id),
    source_id INTEGER NOT NULL REFERENCES source(id),
    fetched_at INTEGER NOT NULL,       -- ms since epoch
    zone TEXT,                         -- the IANA zone the provider gave
    hours TEXT NOT NULL,               -- JSON array of {hour, tree, grass, weed, total, species}
    days TEXT,                         -- a daily provider's forecast, JSON: {dayMeans, zone, days: [{date, ..., levels}]}; NULL for hours
    PRIMARY KEY (city_id, source_id)
  ) WITHOUT ROWID;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Tables holding observed data, in checksum order, each with its key columns. */
export const DATA_TABLES: ReadonlyArray<readonly [table: string, orderBy: string]> = [
  ['city', 'id'],
  ['source', 'id'],
  ['label', 'id'],
  ['species_shape', 'id'],
  ['pollen_day', 'city_id, day'],
  ['weather_day', 'city_id, day'],
  ['day_value', 'city_id, cut, day'],
];
