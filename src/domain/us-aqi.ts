/**
 * The EPA's Air Quality Index (0 to 500) of a day's particulate matter, the scale US weather apps
 * show, from the 24-hour PM2.5 and PM10 sub-indices: the provider's own `aqi` is on another scale
 * (1 to 5, aqi.ts). Breakpoints: EPA, "Technical Assistance Document for the Reporting of Daily
 * Air Quality - the Air Quality Index (AQI)", EPA-454/B-24-002, May 2024, Table 6, as 40 CFR 58
 * Appendix G Table 2 has them since the PM NAAQS revision of 2024 (89 FR 16202, effective
 * 6 May 2024). Each concentration is truncated first (PM2.5 to 0.1 µg/m³, PM10 to 1 µg/m³), then
 * interpolated linearly within its band and rounded; the day's index is the higher sub-index,
 * named by its pollutant. Above the last band the index is "beyond the AQI": 500 here.
 */

/** [low, high] concentration of each band, and the index at each end: Good, Moderate, USG, Unhealthy, Very Unhealthy, Hazardous. */
type Band = readonly [cLow: number, cHigh: number, iLow: number, iHigh: number];

/** Each band's index ends, the same for every pollutant. */
const INDEX_ENDS = [0, 50, 51, 100, 101, 150, 151, 200, 201, 300, 301, 500];

/** Bands from each band's concentration ends, in the table's order, beside the index ends. */
const bands = (ends: readonly number[]): Band[] =>
  Array.from({ length: ends.length / 2 }, (_, i) => [ends[2 * i]!, ends[2 * i + 1]!, INDEX_ENDS[2 * i]!, INDEX_ENDS[2 * i + 1]!] as const);

// µg/m³, 24-hour means.
const PM2_5 = bands([0.0, 9.0, 9.1, 35.4, 35.5, 55.4, 55.5, 125.4, 125.5, 225.4, 225.5, 325.4]);
const PM10 = bands([0, 54, 55, 154, 155, 254, 255, 354, 355, 424, 425, 604]);

/** The EPA's six categories, by the index's upper end. */
export const US_AQI_CATEGORIES = [
  [50, 'Good'],
  [100, 'Moderate'],
  [150, 'Unhealthy for Sensitive Groups'],
  [200, 'Unhealthy'],
  [300, 'Very Unhealthy'],
  [500, 'Hazardous'],
] as const;

export type UsAqiPollutant = 'PM2.5' | 'PM10';

/** One pollutant's sub-index of a truncated 24-hour concentration. */
function subIndex(bands: readonly Band[], truncated: number): number {
  for (const [cLow, cHigh, iLow, iHigh] of bands)
    if (truncated <= cHigh) return Math.round(((iHigh - iLow) / (cHigh - cLow)) * (Math.max(truncated, cLow) - cLow) + iLow);
  return 500;
}

/** Truncated to `step` (0.1 or 1), as the EPA truncates before interpolating; exact on decimal input. */
const truncate = (value: number, step: number) => Math.floor(Math.round((value / step) * 1e6) / 1e6) * step;

/**
 * The day's index and the pollutant that sets it, from its 24-hour mean PM2.5 and PM10 (µg/m³);
 * nothing where neither is given (or neither is a valid concentration). On a tie PM2.5 names it.
 */
export function usAqi(
  pm2_5: number | undefined,
  pm10: number | undefined,
): { aqi_us: number; aqi_us_pollutant: UsAqiPollutant } | undefined {
  const valid = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v) && v >= 0;
  const fine = valid(pm2_5) ? subIndex(PM2_5, Number(truncate(pm2_5, 0.1).toFixed(1))) : undefined;
  const coarse = valid(pm10) ? subIndex(PM10, truncate(pm10, 1)) : undefined;
  if (fine === undefined && coarse === undefined) return undefined;
  return coarse !== undefined && (fine === undefined || coarse > fine)
    ? { aqi_us: coarse, aqi_us_pollutant: 'PM10' }
    : { aqi_us: fine!, aqi_us_pollutant: 'PM2.5' };
}

/** The EPA category of an index. */
export const usAqiCategory = (index: number): string => US_AQI_CATEGORIES.find(([upper]) => index <= upper)?.[1] ?? 'Hazardous';
