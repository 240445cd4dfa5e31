/**
 * The plants every provider's species are named by in a stored payload, once for all providers:
 * Oak is `Oak` whoever says it, and answers, alerts and the page watch one allergen whichever
 * provider filled the day. The names are those of the first provider's US payloads (Ambee's:
 * `Cypress / Juniper / Cedar`, `Grass / Poaceae`), so the days stored before stay as they are.
 * A plant no entry names is kept under the category its provider gives, by its provider's name.
 */
import { slugify } from '../cities.js';
import type { Species, SpeciesGroup } from './payload.js';
import { type Category, SPECIES_KEY } from './risk.js';

/** A plant as a stored payload names it: its group key (`Tree`, `Grass`, `Weed`, or `Others` for the rest) and its name. */
export interface PlantName {
  group: string;
  name: string;
}

const OTHERS = 'Others';

/** Each plant's group and name, with the words providers use for it (matched as slugs: `bermuda_grass` is `bermuda-grass`). */
const PLANTS: ReadonlyArray<readonly [Category, string, readonly string[]]> = [
  ['tree', 'Alder', ['alder', 'alnus']],
  ['tree', 'Ash', ['ash', 'fraxinus']],
  ['tree', 'Birch', ['birch', 'betula']],
  ['tree', 'Birch family', ['birch-family', 'betulaceae']],
  ['tree', 'Cypress / Juniper / Cedar', ['cypress-juniper-cedar', 'cypress', 'juniper', 'cedar', 'mountain-cedar', 'cupressaceae']],
  ['tree', 'Elm', ['elm', 'ulmus']],
  ['tree', 'Hazel', ['hazel', 'corylus']],
  ['tree', 'Hickory', ['hickory', 'carya', 'pecan']],
  ['tree', 'Maple', ['maple', 'acer', 'box-elder']],
  ['tree', 'Mulberry', ['mulberry', 'morus']],
  ['tree', 'Oak', ['oak', 'quercus']],
  ['tree', 'Olive', ['olive', 'olea']],
  ['tree', 'Pine', ['pine', 'pinus']],
  ['tree', 'Pine family', ['pine-family', 'pinaceae']],
  ['tree', 'Poplar / Cottonwood', ['poplar-cottonwood', 'poplar', 'cottonwood', 'populus', 'aspen']],
  ['tree', 'Spruce', ['spruce', 'picea']],
  ['tree', 'Sycamore', ['sycamore', 'plane', 'platanus']],
  ['tree', 'Walnut', ['walnut', 'juglans']],
  ['tree', 'Willow', ['willow', 'salix']],
  ['grass', 'Grass / Poaceae', ['grass-poaceae', 'grass', 'grasses', 'poaceae']],
  ['grass', 'Bermuda Grass', ['bermuda-grass', 'bermuda', 'cynodon']],
  ['grass', 'Bluegrass', ['bluegrass', 'poa']],
  ['grass', "Cock's-foot", ['cock-s-foot', 'orchard-grass', 'dactylis']],
  ['grass', 'False Oat-grass', ['false-oat-grass', 'arrhenatherum']],
  ['grass', 'Ryegrass', ['ryegrass', 'lolium']],
  ['grass', 'Timothy Grass', ['timothy-grass', 'timothy', 'phleum']],
  ['weed', 'Ragweed', ['ragweed', 'ambrosia']],
  ['weed', 'Mugwort', ['mugwort', 'artemisia', 'sagebrush']],
  ['weed', 'Nettle', ['nettle', 'urtica', 'urticaceae']],
  ['weed', 'Plantain', ['plantain', 'plantago']],
  ['weed', 'Chenopod / Amaranth', ['chenopod-amaranth', 'chenopod', 'amaranth', 'pigweed', 'lambs-quarters', 'amaranthaceae']],
  ['weed', 'Dock / Sorrel', ['dock-sorrel', 'dock', 'sorrel', 'rumex']],
];

const BY_WORD = new Map<string, PlantName>(
  PLANTS.flatMap(([category, name, words]) => words.map((w): [string, PlantName] => [w, { group: SPECIES_KEY[category], name }])),
);

/** The group key of a provider's category word (`tree`, `Trees`, `grass`, `Grasses`, `weed`); `Others` for any other. */
export function groupOf(category: string | undefined): string {
  const slug = slugify(category ?? '');
  // The plural is the word and an `s` or `es` more: stripping a final `s` alone made `grass` `gras`.
  const known = (Object.keys(SPECIES_KEY) as Category[]).find((c) => slug === c || slug === `${c}s` || slug === `${c}es`);
  return known === undefined ? OTHERS : SPECIES_KEY[known];
}

/**
 * The stored name of a provider's plant: the table's where a word of it is known, else its own
 * name under the group its provider puts it in (`category`), never dropped.
 */
export function plantName(providerName: string, category?: string, displayName?: string): PlantName {
  const known = BY_WORD.get(slugify(providerName.replaceAll('_', ' '))) ?? (displayName ? BY_WORD.get(slugify(displayName)) : undefined);
  if (known) return known;
  return { group: groupOf(category), name: displayName?.trim() || providerName };
}

/**
 * A stored species payload from a provider's plants and their values, grouped and named by the
 * table, groups in category order (Tree, Grass, Weed, Others); two words for one plant keep the higher value.
 */
export function speciesPayload(plants: Iterable<{ name: string; category?: string; displayName?: string; value: number | null }>): Species {
  const groups = new Map<string, Map<string, number | null>>();
  for (const p of plants) {
    const { group, name } = plantName(p.name, p.category, p.displayName);
    let names = groups.get(group);
    if (!names) groups.set(group, (names = new Map()));
    const before = names.get(name);
    names.set(name, before === undefined || before === null ? p.value : p.value === null ? before : Math.max(before, p.value));
  }
  const order = [...Object.values(SPECIES_KEY), OTHERS];
  const species: Species = {};
  for (const group of [...groups.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b))) {
    const entries: SpeciesGroup = Object.fromEntries(groups.get(group)!);
    species[group] = entries;
  }
  return species;
}
