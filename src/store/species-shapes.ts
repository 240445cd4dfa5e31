/**
 * Species key shapes: the key structure of a provider's species payload, kept once per shape
 * (store/codec.ts packs a day's values against its shape's id).
 */
import { hasShape, leafCount, type Shape, type Species, shapeKey, shapeOf } from '../domain/species/payload.js';
import type { Db } from './database.js';

export class SpeciesShapes {
  private readonly shapes = new Map<number, Shape>();
  private readonly leaves = new Map<number, number>();
  private readonly ids = new Map<string, number>();
  /** The shape asked for last: the next hour's payload mostly has it too. */
  private last: { shape: Shape; id: number } | undefined;
  private readonly stmt;

  constructor(db: Db) {
    this.stmt = {
      id: db.prepare('SELECT id FROM species_shape WHERE keys = ?').pluck(),
      add: db.prepare('INSERT INTO species_shape (keys) VALUES (?) ON CONFLICT (keys) DO NOTHING'),
      keys: db.prepare('SELECT keys FROM species_shape WHERE id = ?').pluck(),
      all: db.prepare('SELECT keys FROM species_shape').pluck(),
    };
  }

  /** The id of a payload's shape, added when new (writers only). */
  idFor(species: Species): number {
    if (this.last && hasShape(species, this.last.shape)) return this.last.id;
    const key = shapeKey(species);
    let id = this.ids.get(key);
    if (id === undefined) {
      const keys = JSON.stringify(shapeOf(species));
      this.stmt.add.run(keys);
      id = this.stmt.id.get(keys) as number;
      this.ids.set(key, id);
    }
    this.last = { shape: shapeOf(species), id };
    return id;
  }

  /** The shape of an id. */
  shape(id: number): Shape {
    let shape = this.shapes.get(id);
    if (shape === undefined) {
      shape = JSON.parse(this.stmt.keys.get(id) as string) as Shape;
      this.shapes.set(id, shape);
    }
    return shape;
  }

  /** How many leaves a payload of the shape of an id has. */
  slots(id: number): number {
    let n = this.leaves.get(id);
    if (n === undefined) this.leaves.set(id, (n = leafCount(this.shape(id))));
    return n;
  }

  /** Every shape the store holds: what a species object of any of its hours can look like. */
  all(): Shape[] {
    return (this.stmt.all.all() as string[]).map((keys) => JSON.parse(keys) as Shape);
  }
}
