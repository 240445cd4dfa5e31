/**
 * The units the page writes: US units (°F, mph, inches, miles) unless the reader switched to
 * metric, which this browser remembers. The API itself answers in SI units; only the page converts.
 */
const KEPT = 'pollen-units';

export type Units = 'us' | 'metric';

export function unitsInUse(): Units {
  try {
    return localStorage.getItem(KEPT) === 'metric' ? 'metric' : 'us';
  } catch {
    return 'us';
  }
}

export function keepUnits(units: Units): void {
  try {
    localStorage.setItem(KEPT, units);
  } catch {
    // Storage refused (a private window): the switch holds for this visit.
  }
}

const one = (n: number) => (Math.round(n * 10) / 10).toLocaleString('en-US');

/** A temperature given in °C. */
export const temperature = (c: number, units = unitsInUse()): string =>
  units === 'us' ? `${Math.round((c * 9) / 5 + 32)} °F` : `${one(c)} °C`;

/** A range of temperatures given in °C: "59 to 77 °F". */
export const temperatures = (low: number, high: number, units = unitsInUse()): string =>
  `${temperature(low, units).split(' ')[0]} to ${temperature(high, units)}`;

/** A wind speed given in m/s. */
export const speed = (ms: number, units = unitsInUse()): string =>
  units === 'us' ? `${Math.round((ms * 3600) / 1609.344)} mph` : `${one(ms)} m/s`;

/** A depth of rain given in mm. */
export const depth = (mm: number, units = unitsInUse()): string => (units === 'us' ? `${(mm / 25.4).toFixed(2)} in` : `${one(mm)} mm`);

/** A distance given in km (a mile is 1.609344 km exactly). */
export const distance = (km: number, units = unitsInUse()): string => (units === 'us' ? `${one(km / 1.609344)} miles` : `${one(km)} km`);
