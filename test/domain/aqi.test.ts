import { describe, expect, it } from 'vitest';
import { AQI_BREAKPOINTS, aqiFromConcentrations, type Pollutant, pollutantIndex } from '../../src/domain/aqi.js';

describe('air-quality index', () => {
  for (const pollutant of Object.keys(AQI_BREAKPOINTS) as Pollutant[]) {
    const bounds = AQI_BREAKPOINTS[pollutant];
    it(`puts each ${pollutant} breakpoint in the higher index`, () => {
      expect(pollutantIndex(pollutant, 0)).toBe(1);
      bounds.forEach((b, i) => {
        expect(pollutantIndex(pollutant, b - 0.001)).toBe(i + 1);
        expect(pollutantIndex(pollutant, b)).toBe(i + 2);
      });
      expect(pollutantIndex(pollutant, bounds[3] * 10)).toBe(5);
    });
  }

  it('takes the worst pollutant present and skips missing ones', () => {
    expect(aqiFromConcentrations({ pm2_5: 9.9, o3: 100, no2: null })).toBe(3);
    expect(aqiFromConcentrations({ co: 15400 })).toBe(5);
    expect(aqiFromConcentrations({})).toBeUndefined();
    expect(aqiFromConcentrations({ pm10: -3 })).toBeUndefined();
  });
});
