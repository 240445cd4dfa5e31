/**
 * Simulated hourly pollen: seasons by latitude and climate region, mountain cedar in Texas and
 * Oklahoma winters, a daily cycle peaking late morning, day-to-day weather swings, and now and
 * then a missing hour, a missing value or a missing species payload.
 */
import type { City, ClimateRegion } from '../../domain/cities.js';
import { dayOfYear, HOUR_MS } from '../../domain/dates.js';
import type { RawPollenHour } from '../provider.js';
import { bump, hashString, normal, unit } from './noise.js';

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
 * Tree allergens (days from the regional tree peak, and relative weight), with the names and order
 * of Ambee's US payloads: Tree {Ash, Birch, Cypress / Juniper / Cedar, Elm, Maple, Mulberry, Oak,
 * Pine, Poplar / Cottonwood}, Grass {Grass / Poaceae}, Weed {Ragweed}, Others a plain number
 * (andrewliu6868/PollenTracker `frontend/data/forecastData.js`, 40 Los Angeles items, 2024).
 */
const TREES: ReadonlyArray<[name: string, offset: number, weight: number]> = [
  ['Ash', 0, 0.35],
  ['Birch', -3, 0.45],
  ['Cypress / Juniper / Cedar', -12, 0.3],
  ['Elm', -16, 0.3],
  ['Maple', -12, 0.4],
  ['Mulberry', 10, 0.3],
  ['Oak', 8, 0.75],
  ['Pine', 20, 0.25],
  ['Poplar / Cottonwood', 2, 0.35],
];

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

export interface SampleCityModel {
  hourly(hour: number): RawPollenHour | null;
}

/** The pollen model of one city. */
export function pollenModel(city: City): SampleCityModel {
  const seed = hashString(city.slug);
  const amp = AMPLITUDE[city.region];
  const scale = 0.75 + 0.5 * unit(seed, 1);
  const treePeak = Math.min(150, 55 + (city.lat - 25) * 3.2);
  const grassPeak = 125 + (city.lat - 25) * 2.2;
  const weedShift = -(city.lat - 35) * 1.5;
  const cedar = MOUNTAIN_CEDAR[city.slug] ?? 0;
  const solarOffset = city.lon / 15;

  return {
    hourly(hour: number): RawPollenHour | null {
      const day = Math.floor(hour / 24);
      if (unit(seed, day, 9) < 0.002 || unit(seed, hour, 7) < 0.01) return null; // provider gaps
      const doy = dayOfYear(day);
      const rainy = unit(seed, day, 3) < 0.12;
      const weather = rainy ? 0.15 : Math.exp(0.55 * normal(seed, day, 4) - 0.15);
      const localHour = ((((hour % 24) + solarOffset) % 24) + 24) % 24;
      const cycle = 0.3 + 0.7 * Math.exp(-0.5 * ((localHour - 11) / 3.5) ** 2);
      const jitter = 0.85 + 0.3 * unit(seed, hour, 5);
      const f = scale * weather * cycle * jitter;

      const tree = Object.fromEntries(
        TREES.map(([name, offset, weight]) => {
          let v = amp.tree * weight * bump(doy, treePeak + offset, 16);
          if (name === 'Cypress / Juniper / Cedar') v += cedar * bump(doy, 15, 14);
          return [name, count(v * f)];
        }),
      );
      const grass = { 'Grass / Poaceae': count(amp.grass * (bump(doy, grassPeak, 28) + 0.08 * bump(doy, grassPeak + 110, 20)) * f) };
      const weed = { Ragweed: count(amp.weed * bump(doy, RAGWEED_PEAK + weedShift, 17) * f) };
      const others = count(4 * bump(doy, treePeak + 30, 60) * f + unit(seed, hour, 6) * 2);
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
    },
  };
}
