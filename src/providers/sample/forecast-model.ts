/**
 * The sample provider's forecast: its own later history with the errors a real pollen forecast
 * makes, growing with the lead time (docs/data.md: its skill is simulated). Deterministic: the same
 * city and issue hour always give the same forecast, so a forecast "as issued" at any past hour can
 * be issued again, and a fresh deployment can score forecasts at once.
 *
 * Real forecasts err in the timing of the season and in its strength: the CAMS ensemble put the
 * start of the 2013 birch season within a couple of days of the observed one, its end 5 days or
 * more late, and over- or underestimated the concentrations by region (Sofiev et al. 2015, "MACC
 * regional multi-model ensemble simulations of birch pollen dispersion in Europe", Atmos. Chem.
 * Phys. 15:8115-8130, https://www.atmos-chem-phys.net/15/8115/2015/acp-15-8115-2015.html); and
 * their accuracy falls with the lead (Emmerson et al. 2022, see domain/verification/scores.ts). Day to day,
 * pollen follows the weather, 30-40% of its variation coming with the air mass a front brings
 * (Nowosad et al. 2015, doi:10.1007/s10453-014-9354-2), which a forecast knows well a day ahead and
 * hardly a week ahead. So each category's hourly values are the history's, multiplied by
 *   timing      L(d - τ) / L(d), the seasonal level a shift of τ = TIMING · ℓ · z_τ days away,
 *   weather     R(d)^(w - 1), w = exp(-ℓ / WEATHER_DAYS): the day's weather R = (1 + D(d)) / (1 + L(d))
 *               kept in full at lead 0 and lost by a week (the forecast then says the seasonal level),
 *   amplitude   exp(σ_A(ℓ) z_A), σ_A = AMPLITUDE[0] + AMPLITUDE[1] · ℓ, one draw for the whole forecast,
 *   noise       exp(σ_e(ℓ) ε_d), σ_e = NOISE[0] + NOISE[1] · ℓ, a draw per target day,
 * where ℓ is the lead in days (fractional), D(d) the history's daily mean of the category on UTC
 * day d, L(d) the mean of D over the week centred on d (1 + ... in both, so days without pollen
 * stay without), and z_τ, z_A, ε_d standard normal draws of the city, the issue hour and the
 * category (noise.ts). Every allergen of a category takes the category's factor; `Others` is left
 * as the history has it, and so are the history's gaps.
 */
import type { City } from '../../domain/cities.js';
import { HOUR_MS } from '../../domain/dates.js';
import type { DayValues } from '../../domain/day-values.js';
import { thousandths } from '../../domain/pollen-rows.js';
import { categoryRisk, type Risk } from '../../domain/species/risk.js';
import { coveredEnough, type KeptDay, levelsOf } from '../../domain/verification/target-days.js';
import type { PastForecaster, RawPollenHour } from '../provider.js';
import { hashString, normal } from './noise.js';
import type { SampleCityModel } from './pollen-model.js';

/** The longest forecast the sample issues: 8 days. */
export const MAX_FORECAST_HOURS = 192;
/** Timing error, in days per lead day (one standard deviation). */
const TIMING = 0.5;
/** Days over which a forecast loses the day's weather (e-folding). */
const WEATHER_DAYS = 2;
/** Amplitude error (natural log, one standard deviation): at lead 0, and added per lead day. */
const AMPLITUDE = [0.15, 0.04] as const;
/** Day-to-day forecast noise (natural log, one standard deviation): at lead 0, and added per lead day. */
const NOISE = [0.15, 0.03] as const;
/** Days either side of a day in its seasonal level. */
const LEVEL_HALF_WIDTH = 3;

const GROUPS = [
  ['tree', 'Tree'],
  ['grass', 'Grass'],
  ['weed', 'Weed'],
] as const;
type Group = (typeof GROUPS)[number][0];

const count = (v: number): number => Math.max(0, Math.round(v));

export interface SampleForecaster {
  /** The forecast issued at hour `issueHour` for `hours` hours from it. */
  issued(issueHour: number, hours: number): RawPollenHour[];
}

/** A history's daily mean of a category on a UTC day, or null without one. */
type DailyMean = (day: number, group: Group) => number | null;

/**
 * The errors of one city's forecasts about a history whose daily means `dailyMean` gives: for an
 * issue hour, the factor of each category at a lead (in days, fractional) on a UTC day.
 */
function errorModel(city: City, dailyMean: DailyMean): (issueHour: number) => (lead: number, day: number) => number[] {
  const seed = hashString(`${city.slug} forecast`);
  // The week's mean daily mean of each day, made once: each day is read by every forecast that reaches it.
  const weeks = new Map<string, number>();
  /** The seasonal level L at a (fractional) day: the week's mean daily mean, interpolated between days. */
  const level = (position: number, group: Group): number => {
    const at = (day: number) => {
      const key = `${group}${day}`;
      let mean = weeks.get(key);
      if (mean === undefined) {
        if (weeks.size > 12_000) weeks.clear();
        let [sum, n] = [0, 0];
        for (let d = day - LEVEL_HALF_WIDTH; d <= day + LEVEL_HALF_WIDTH; d++) {
          const v = dailyMean(d, group);
          if (v === null) continue;
          sum += v;
          n++;
        }
        weeks.set(key, (mean = n === 0 ? 0 : sum / n));
      }
      return mean;
    };
    const day = Math.floor(position);
    const t = position - day;
    return t === 0 ? at(day) : (1 - t) * at(day) + t * at(day + 1);
  };
  return (issueHour) => {
    const draws = GROUPS.map((_, g) => ({ timing: normal(seed, issueHour, g, 1), amplitude: normal(seed, issueHour, g, 2) }));
    return (lead, day) =>
      GROUPS.map(([group], g) => {
        const today = level(day, group);
        const timing = (1 + level(day - TIMING * lead * draws[g]!.timing, group)) / (1 + today);
        const weather = ((1 + (dailyMean(day, group) ?? today)) / (1 + today)) ** (Math.exp(-lead / WEATHER_DAYS) - 1);
        const error =
          (AMPLITUDE[0] + AMPLITUDE[1] * lead) * draws[g]!.amplitude + (NOISE[0] + NOISE[1] * lead) * normal(seed, issueHour, day, g, 3);
        return timing * weather * Math.exp(error);
      });
  };
}

/** The forecaster of one city, erring about its history `truth`. */
export function forecastModel(city: City, truth: SampleCityModel): SampleForecaster {
  // Daily means of the history by day; the hours of a few weeks are asked again and again.
  const daily = new Map<number, Record<Group, number | null>>();
  const dailyMean: DailyMean = (day, group) => {
    let means = daily.get(day);
    if (!means) {
      if (daily.size > 4000) daily.clear();
      const sums = { tree: [0, 0], grass: [0, 0], weed: [0, 0] };
      for (let h = day * 24; h < day * 24 + 24; h++) {
        const row = truth.hourly(h);
        if (!row) continue;
        for (const [g] of GROUPS) {
          const v = row[g];
          if (typeof v !== 'number') continue;
          sums[g][0]! += v;
          sums[g][1]!++;
        }
      }
      means = Object.fromEntries(GROUPS.map(([g]) => [g, sums[g][1] === 0 ? null : sums[g][0]! / sums[g][1]!])) as Record<
        Group,
        number | null
      >;
      daily.set(day, means);
    }
    return means[group];
  };
  const errors = errorModel(city, dailyMean);

  return {
    issued(issueHour: number, hours: number): RawPollenHour[] {
      const factors = errors(issueHour);
      const rows: RawPollenHour[] = [];
      for (let h = issueHour; h < issueHour + hours; h++) {
        const row = truth.hourly(h);
        if (!row) continue;
        rows.push(perturbed(row, factors((h - issueHour) / 24, Math.floor(h / 24))));
      }
      return rows;
    },
  };
}

/**
 * The forecasts a city's sample would have issued, made cheaply from the history's day values
 * (`daily`, by UTC day) instead of its hours: each UTC day the forecast covers enough
 * (verification-days.ts) is its day perturbed at once, as an hour is, by the same errors at the
 * lead of the middle of the hours covered: each category's mean to a thousandth, graded as a
 * day's is (by its highest allergen; ragweed on its own mean). A whole past of them costs what the
 * store's day values cost to read, where hours would be simulated again one by one.
 */
export function pastForecastModel(city: City, daily: (day: number) => DayValues | undefined): PastForecaster {
  const errors = errorModel(city, (day, group) => daily(day)?.exact[group] ?? null);
  return {
    issuedDays(issuedAt, hours) {
      const issueHour = Math.floor(issuedAt / HOUR_MS);
      const factors = errors(issueHour);
      const issueDay = Math.floor(issueHour / 24);
      const days: KeptDay[] = [];
      for (let day = issueDay; day * 24 < issueHour + hours; day++) {
        const [from, to] = [Math.max(day * 24, issueHour), Math.min(day * 24 + 24, issueHour + hours)];
        const v = daily(day);
        if (!v || !coveredEnough(to - from, 24)) continue;
        const factor = factors(((from + to - 1) / 2 - issueHour) / 24, day);
        const scaled = perturbedMeans(v, factor);
        days.push({ day, lead: day - issueDay, issuedAt, hours: to - from, levels: levelsOf(scaled) });
      }
      return days;
    },
  };
}

/** A day's means, each category's (and its allergens') multiplied by its factor, unrounded; risks graded on them. */
function perturbedMeans(v: DayValues, factors: readonly number[]): Pick<DayValues, 'exact' | 'means'> {
  const species = perturbed({ tree: null, grass: null, weed: null, species: v.means.species }, factors, (x) => x).species;
  const exact = { ...v.exact };
  const risks: Record<string, Risk | null> = {};
  GROUPS.forEach(([group], g) => {
    const value = v.exact[group];
    exact[group] = value === null ? null : thousandths(value * factors[g]!);
    risks[`risk_${group}`] = categoryRisk(group, exact[group], species);
  });
  exact.ragweed = v.exact.ragweed === null ? null : thousandths(v.exact.ragweed * factors[2]!);
  return { exact, means: { ...v.means, ...risks, species } };
}

/** An hour with each category (and each of its allergens) multiplied by its factor, rounded by `round` (whole grains, as a provider's). */
function perturbed<T extends Pick<RawPollenHour, Group | 'species'>>(
  row: T,
  factors: readonly number[],
  round: (v: number) => number = count,
): T {
  const species = row.species !== null && typeof row.species === 'object' ? { ...(row.species as Record<string, unknown>) } : null;
  const out: Record<string, unknown> = { ...row, species };
  GROUPS.forEach(([group, key], g) => {
    const value = row[group];
    const allergens = species?.[key];
    if (allergens !== null && typeof allergens === 'object') {
      const scaled = Object.fromEntries(
        Object.entries(allergens).map(([name, v]) => [name, typeof v === 'number' ? round(v * factors[g]!) : v]),
      );
      species![key] = scaled;
      // The history's category is the sum of its allergens (pollen.ts): so is the forecast's.
      if (typeof value === 'number') out[group] = Object.values(scaled).reduce<number>((s, v) => s + (typeof v === 'number' ? v : 0), 0);
    } else if (typeof value === 'number') out[group] = round(value * factors[g]!);
  });
  // The same fields, each a number where it was one, and the species the same shape.
  return out as T;
}
