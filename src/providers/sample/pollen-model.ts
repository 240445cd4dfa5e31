/**
 * Simulated hourly pollen: each tree allergen in the months its region's pollen calendar gives it
 * (tree-calendar.ts, with sources), mountain cedar in Texas and Oklahoma winters, grass and
 * ragweed by latitude and only on days of the city's own simulated weather above 0 °C, each
 * season a few days earlier or later and a little weaker or stronger from one year to the next, a
 * daily cycle peaking late morning, day-to-day weather swings, and now and then a missing hour, a
 * missing value or a missing species payload.
 */
import type { City, ClimateRegion } from '../../domain/cities.js';
import { DAY_MS, dayOfDate, HOUR_MS } from '../../domain/dates.js';
import type { RawPollenHour } from '../provider.js';
import { hashString, normal, unit } from './noise.js';
import { type MonthWindow, TREE_CALENDAR } from './tree-calendar.js';
import { dayTemperature, rainyDay } from './weather-model.js';

/** Peak concentration of the season's strongest allergen per category, grains/m³. */
const AMPLITUDE: Record<ClimateRegion, { tree: number; grass: number; weed: number }> = {
  southeast: { tree: 2600, grass: 120, weed: 260 },
  south: { tree: 1300, grass: 160, weed: 520 },
  'ohio-valley': { tree: 1900, grass: 230, weed: 650 },
  northeast: { tree: 1700, grass: 130, weed: 360 },
  'upper-midwest': { tree: 1300, grass: 170, weed: 700 },
  'northern-rockies-plains': { tree: 500, grass: 190, weed: 320 },
  southwest: { tree: 700, grass: 80, weed: 220 },
  west: { tree: 600, grass: 240, weed: 110 },
  northwest: { tree: 900, grass: 280, weed: 70 },
  alaska: { tree: 800, grass: 60, weed: 25 },
  hawaii: { tree: 25, grass: 45, weed: 15 },
};

/**
 * Tree allergens (relative weight; their months are the region's, tree-calendar.ts), with the names and order
 * of Ambee's US payloads: Tree {Ash, Birch, Cypress / Juniper / Cedar, Elm, Maple, Mulberry, Oak,
 * Pine, Poplar / Cottonwood}, Grass {Grass / Poaceae}, Weed {Ragweed}, Others a plain number
 * (andrewliu6868/PollenTracker `frontend/data/forecastData.js`, 40 Los Angeles items, 2024).
 */
const TREES: ReadonlyArray<[name: string, weight: number]> = [
  ['Ash', 0.35],
  ['Birch', 0.45],
  ['Cypress / Juniper / Cedar', 0.3],
  ['Elm', 0.3],
  ['Maple', 0.4],
  ['Mulberry', 0.3],
  ['Oak', 0.75],
  ['Pine', 0.25],
  ['Poplar / Cottonwood', 0.35],
];

/** Mountain cedar (Juniperus ashei) pollinates "during December and January", into early February (tree-calendar.ts, south). */
const CEDAR_MONTHS: MonthWindow = [12, 2];

/** Days over which a season rises from nothing at the start of its months and falls to nothing at their end. */
const EDGE_DAYS = 10;

/** Ragweed's peak day of year (shifted by latitude): late summer. */
const RAGWEED_PEAK = 250;

/** Cities whose winters bring mountain cedar, with its peak concentration. */
const MOUNTAIN_CEDAR: Record<string, number> = {
  austin: 3200,
  'san-antonio': 2600,
  dallas: 700,
  'oklahoma-city': 500,
  tulsa: 350,
  mcallen: 250,
};

const count = (v: number): number => Math.max(0, Math.round(v));

/**
 * The seasons whose timing and strength move from year to year, each with its own draw: the tree
 * species together (one spring comes early for all of them), mountain cedar, grass, ragweed and the
 * rest. A draw is a city's, a year's and a season's, so each city-year differs from the others.
 */
const SEASONS = { tree: 1, cedar: 2, grass: 3, ragweed: 4, others: 5 } as const;
type Season = keyof typeof SEASONS;

/** The day temperature (°C) from which grass and weed pollen flies in full; none at or below 0 °C. */
const WARM_ENOUGH = 10;

/** Up to this many days earlier or later than the regional timing. */
const SHIFT_DAYS = 6;
/** Up to this share weaker or stronger than the regional amplitude. */
const SHIFT_STRENGTH = 0.15;

/** A season's timing (days) and strength (a factor) in a calendar year: the same city, year and season always give the same. */
function yearDraw(seed: number, year: number, season: Season): { days: number; factor: number } {
  return {
    days: Math.round((2 * unit(seed, year, SEASONS[season], 11) - 1) * SHIFT_DAYS),
    factor: 1 + (2 * unit(seed, year, SEASONS[season], 12) - 1) * SHIFT_STRENGTH,
  };
}

/** The first day (day number) of each calendar year, by year. */
const yearStart = (year: number): number => dayOfDate(year, 1, 1);

/** The first day of a month (1..12; 13 is January of the next year). */
const firstOfMonth = (year: number, month: number): number => (month > 12 ? dayOfDate(year + 1, month - 12, 1) : dayOfDate(year, month, 1));

export interface SampleCityModel {
  hourly(hour: number): RawPollenHour | null;
}

/** The seasonal level of each allergen on one day, before the day's weather and the hour's cycle. */
interface DayShape {
  tree: number[];
  cedar: number;
  grass: number;
  ragweed: number;
  others: number;
  /** How much of its grass and weed pollen the day's weather lets fly: 0 at or below 0 °C, 1 from WARM_ENOUGH. */
  warmth: number;
}

/**
 * A seasonal bell around day of year `peak` with a spread of `width` days, moved and scaled by
 * each year's draw: the bells of the day's year and of the years either side are added, so a
 * season that spans New Year (cedar) or a wide one (the others) flows from one year into the next.
 */
function seasonal(seed: number, day: number, peak: number, width: number, season: Season): number {
  const year = new Date(day * DAY_MS).getUTCFullYear();
  let level = 0;
  for (let y = year - 1; y <= year + 1; y++) {
    const { days, factor } = yearDraw(seed, y, season);
    const d = day - (yearStart(y) + peak - 1 + days);
    level += factor * Math.exp(-0.5 * (d / width) ** 2);
  }
  return level;
}
/**
 * A season that keeps to a window of months (tree-calendar.ts): a bell over the window, its
 * centre moved by each year's draw, rising from nothing at the window's first day and falling
 * to nothing at its last, so that no pollen of it flies outside its months.
 */
function windowed(seed: number, day: number, [from, to, strength = 1]: MonthWindow, season: Season): number {
  const year = new Date(day * DAY_MS).getUTCFullYear();
  let level = 0;
  for (let y = year - 1; y <= year; y++) {
    const start = firstOfMonth(y, from);
    const end = firstOfMonth(to < from ? y + 1 : y, to + 1); // the first day after the window
    if (day < start || day >= end) continue;
    const { days, factor } = yearDraw(seed, y, season);
    const centre = (start + end) / 2 + days;
    const rise = Math.min(1, (day - start + 1) / EDGE_DAYS, (end - day) / EDGE_DAYS);
    level += strength * factor * rise * Math.exp(-0.5 * ((day - centre) / (0.35 * (end - start))) ** 2);
  }
  return level;
}
const inMonths = (seed: number, day: number, windows: readonly MonthWindow[] | undefined, season: Season): number =>
  (windows ?? []).reduce((sum, w) => sum + windowed(seed, day, w, season), 0);

/** An hour's counts from its day's seasonal levels and `f`, the day's weather and the hour's cycle: its species, with the provider's gaps. */
function hourOf(seed: number, hour: number, season: DayShape, f: number): RawPollenHour {
  const tree = Object.fromEntries(
    TREES.map(([name], i) => {
      let v = season.tree[i]!;
      if (name === 'Cypress / Juniper / Cedar') v += season.cedar;
      return [name, count(v * f)];
    }),
  );
  const grass = { 'Grass / Poaceae': count(season.grass * f * season.warmth) };
  const weed = { Ragweed: count(season.ragweed * f * season.warmth) };
  const others = count(season.others * f + unit(seed, hour, 6) * 2);
  const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
  const speciesMissing = unit(seed, hour, 8) < 0.002;
  const weedMissing = unit(seed, hour, 10) < 0.003;
  return {
    time: hour * HOUR_MS,
    tree: sum(tree),
    grass: sum(grass),
    weed: weedMissing ? null : sum(weed),
    species: speciesMissing ? null : { Grass: grass, Others: others, Tree: tree, Weed: weed },
  };
}

/** The pollen model of one city. */
export function pollenModel(city: City): SampleCityModel {
  const seed = hashString(city.slug);
  const amp = AMPLITUDE[city.region];
  const scale = 0.75 + 0.5 * unit(seed, 1);
  const treePeak = Math.min(150, 55 + (city.lat - 25) * 3.2);
  const calendar = TREE_CALENDAR[city.region];
  const grassPeak = 125 + (city.lat - 25) * 2.2;
  const weedShift = -(city.lat - 35) * 1.5;
  const cedar = MOUNTAIN_CEDAR[city.slug] ?? 0;
  const solarOffset = city.lon / 15;
  const temperature = dayTemperature(city);

  // The hours of a day share its seasonal levels: computed once per day.
  let shapeDay = Number.NaN;
  let shape: DayShape | undefined;
  const dayShape = (day: number): DayShape => {
    if (day !== shapeDay || !shape) {
      shapeDay = day;
      shape = {
        tree: TREES.map(([name, weight]) => amp.tree * weight * inMonths(seed, day, calendar[name], 'tree')),
        cedar: cedar * windowed(seed, day, CEDAR_MONTHS, 'cedar'),
        grass: amp.grass * (seasonal(seed, day, grassPeak, 28, 'grass') + 0.08 * seasonal(seed, day, grassPeak + 110, 20, 'grass')),
        ragweed: amp.weed * seasonal(seed, day, RAGWEED_PEAK + weedShift, 17, 'ragweed'),
        others: 4 * seasonal(seed, day, treePeak + 30, 60, 'others'),
        // Grasses and weeds shed no pollen in the cold: none on a day of the city's weather below 0 °C, less up to 10 °C.
        warmth: Math.min(1, Math.max(0, temperature(day) / WARM_ENOUGH)),
      };
    }
    return shape;
  };

  return {
    hourly(hour: number): RawPollenHour | null {
      const day = Math.floor(hour / 24);
      if (unit(seed, day, 9) < 0.002 || unit(seed, hour, 7) < 0.01) return null; // provider gaps
      const season = dayShape(day);
      const rainy = rainyDay(seed, day);
      const weather = rainy ? 0.15 : Math.exp(0.55 * normal(seed, day, 4) - 0.15);
      const localHour = ((((hour % 24) + solarOffset) % 24) + 24) % 24;
      const cycle = 0.3 + 0.7 * Math.exp(-0.5 * ((localHour - 11) / 3.5) ** 2);
      const jitter = 0.85 + 0.3 * unit(seed, hour, 5);
      return hourOf(seed, hour, season, scale * weather * cycle * jitter);
    },
  };
}
