/** Air-quality index 1..5 from concentrations, with OpenWeatherMap's breakpoints (docs/decisions.md, "Weather"). */

export type Pollutant = 'so2' | 'no2' | 'pm10' | 'pm2_5' | 'o3' | 'co';

/** Lower bounds (µg/m³) of indexes 2, 3, 4 and 5; intervals are half-open, so a bound takes the higher index. */
export const AQI_BREAKPOINTS: Readonly<Record<Pollutant, readonly [number, number, number, number]>> = {
  so2: [20, 80, 250, 350],
  no2: [40, 70, 150, 200],
  pm10: [20, 50, 100, 200],
  pm2_5: [10, 25, 50, 75],
  o3: [60, 100, 140, 180],
  co: [4400, 9400, 12400, 15400],
};

/** The index of one concentration. */
export function pollutantIndex(pollutant: Pollutant, value: number): number {
  const bounds = AQI_BREAKPOINTS[pollutant];
  let index = 1;
  for (const bound of bounds) if (value >= bound) index++;
  return index;
}

/** The worst index of the pollutants present (NH3 and NO are not counted); undefined when none is. */
export function aqiFromConcentrations(c: Partial<Record<Pollutant, number | null>>): number | undefined {
  let worst: number | undefined;
  for (const p of Object.keys(AQI_BREAKPOINTS) as Pollutant[]) {
    const v = c[p];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) continue;
    worst = Math.max(worst ?? 1, pollutantIndex(p, v));
  }
  return worst;
}
