/**
 * Each city's forecast skill (domain/verification/forecast-skill.ts), as a render computes it from the
 * forecasts kept and writes it into the served store: the answer of /api/forecast-skill?city=,
 * which the functions filter by category and lead. Deflated: a city's is about 190 kB of JSON,
 * and a tenth of that deflated, in a file every store-backed function carries.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { ForecastSkill } from '../domain/verification/skill-schemas.js';
import type { Db } from './database.js';
import type { Names } from './names.js';

/** A skill as the store keeps it: its JSON, deflated. */
export const encodeSkill = (skill: ForecastSkill): Uint8Array => deflateRawSync(JSON.stringify(skill));
/** A skill from what encodeSkill made. */
export const decodeSkill = (data: Uint8Array): ForecastSkill => JSON.parse(inflateRawSync(data).toString('utf8')) as ForecastSkill;

export class ForecastSkills {
  private readonly stmt;

  constructor(
    private readonly db: Db,
    private readonly names: Names,
  ) {
    this.stmt = {
      put: db.prepare(
        'INSERT INTO forecast_skill (city_id, skill) VALUES (?, ?) ON CONFLICT (city_id) DO UPDATE SET skill = excluded.skill',
      ),
      get: db.prepare('SELECT skill FROM forecast_skill WHERE city_id = ?').pluck(),
      any: db.prepare('SELECT 1 FROM forecast_skill LIMIT 1').pluck(),
      has: db.prepare('SELECT 1 FROM forecast_skill WHERE city_id = ?').pluck(),
    };
  }

  /** Replaces each city's skill, as encodeSkill made it, in one transaction. */
  put(skills: Iterable<readonly [city: string, skill: Uint8Array]>): void {
    this.db.transaction(() => {
      for (const [city, skill] of skills) this.stmt.put.run(this.names.id('city', city), skill);
    })();
  }

  /** A city's skill, as the render that wrote this store computed it; undefined when none did. */
  get(city: string): ForecastSkill | undefined {
    const id = this.names.id('city', city);
    const data = id === undefined ? undefined : (this.stmt.get.get(id) as Uint8Array | undefined);
    return data && decodeSkill(data);
  }

  /** Whether a render wrote a city's skill (nothing decoded). */
  has(city: string): boolean {
    const id = this.names.id('city', city);
    return id !== undefined && this.stmt.has.get(id) !== undefined;
  }

  /** Whether a render wrote any city's skill into this store. */
  written(): boolean {
    return this.stmt.any.get() !== undefined;
  }
}
