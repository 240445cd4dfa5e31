/** The small lookup tables (cities, sources, labels): ids by name and names by id, cached. */
import type { Db } from './database.js';

type NameKind = 'city' | 'source' | 'label';

/** Ids of the small lookup tables (cities, sources, labels), cached; a writer adds names it has not seen. */
export class Names {
  /** By kind, then name: no key made per lookup (the ingest asks several times per city-day). */
  private readonly ids: Record<NameKind, Map<string, number>> = { city: new Map(), source: new Map(), label: new Map() };
  private readonly names = new Map<string, string>();
  private readonly stmt;

  constructor(
    db: Db,
    private readonly readonly: boolean,
  ) {
    this.stmt = {
      city: [
        db.prepare('SELECT id FROM city WHERE slug = ?').pluck(),
        db.prepare('INSERT INTO city (slug) VALUES (?) ON CONFLICT (slug) DO NOTHING'),
      ],
      source: [
        db.prepare('SELECT id FROM source WHERE name = ?').pluck(),
        db.prepare('INSERT INTO source (name) VALUES (?) ON CONFLICT (name) DO NOTHING'),
      ],
      label: [
        db.prepare('SELECT id FROM label WHERE text = ?').pluck(),
        db.prepare('INSERT INTO label (text) VALUES (?) ON CONFLICT (text) DO NOTHING'),
      ],
      sourceName: db.prepare('SELECT name FROM source WHERE id = ?').pluck(),
      labelText: db.prepare('SELECT text FROM label WHERE id = ?').pluck(),
      longestLabel: db.prepare('SELECT coalesce(max(length(CAST(text AS BLOB))), 0) FROM label').pluck(),
    } as const;
  }

  /** Bytes of the longest stored label (a zone an hour reports, a weather description), as UTF-8. */
  longestLabelBytes(): number {
    return this.stmt.longestLabel.get() as number;
  }

  /** Id of a named row, created when writing and missing; undefined when reading and missing. */
  id(kind: NameKind, name: string): number | undefined {
    const known = this.ids[kind].get(name);
    if (known !== undefined) return known;
    const [find, add] = this.stmt[kind];
    let id = find.get(name) as number | undefined;
    if (id === undefined && !this.readonly) {
      add.run(name);
      id = find.get(name) as number;
    }
    if (id !== undefined) this.ids[kind].set(name, id);
    return id;
  }

  /** The name of a source id. */
  source(id: number): string {
    return this.text('source', id);
  }

  /** The text of a label id (a time zone, a weather description). */
  label(id: number): string {
    return this.text('label', id);
  }

  private text(kind: 'source' | 'label', id: number): string {
    const key = `${kind}:${id}`;
    let name = this.names.get(key);
    if (name === undefined)
      this.names.set(key, (name = (kind === 'source' ? this.stmt.sourceName : this.stmt.labelText).get(id) as string));
    return name;
  }
}
