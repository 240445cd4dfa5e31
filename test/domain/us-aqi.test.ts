/**
 * The EPA's AQI of a day's particulate matter. The expected indexes are the ends of the bands of
 * EPA-454/B-24-002 (May 2024), Table 6, where a band's concentration ends map to its index ends,
 * and points inside worked by hand with the TAD's equation I = (Ihi - Ilo) / (BPhi - BPlo) x (C - BPlo) + Ilo.
 */
import { describe, expect, it } from 'vitest';
import { usAqi, usAqiCategory } from '../../src/domain/us-aqi.js';

describe("the EPA's AQI of PM2.5 and PM10", () => {
  it.each([
    // PM2.5 alone, at each band's ends.
    [0, undefined, 0, 'PM2.5'],
    [9.0, undefined, 50, 'PM2.5'],
    [9.1, undefined, 51, 'PM2.5'],
    [35.4, undefined, 100, 'PM2.5'],
    [35.5, undefined, 101, 'PM2.5'],
    [55.4, undefined, 150, 'PM2.5'],
    [55.5, undefined, 151, 'PM2.5'],
    [125.4, undefined, 200, 'PM2.5'],
    [125.5, undefined, 201, 'PM2.5'],
    [225.4, undefined, 300, 'PM2.5'],
    [225.5, undefined, 301, 'PM2.5'],
    [325.4, undefined, 500, 'PM2.5'],
    // Beyond the AQI.
    [600, undefined, 500, 'PM2.5'],
    // Inside a band: 49 / 26.3 x 2.9 + 51 = 56.40.
    [12.0, undefined, 56, 'PM2.5'],
    // Truncated to 0.1 first: 9.09 is 9.0 (50), not between the bands.
    [9.09, undefined, 50, 'PM2.5'],
    // PM10 alone, truncated to whole µg/m³: 54.9 is 54.
    [undefined, 54, 50, 'PM10'],
    [undefined, 54.9, 50, 'PM10'],
    [undefined, 155, 101, 'PM10'],
    [undefined, 604, 500, 'PM10'],
    // Both: the higher sub-index, named; a tie is PM2.5's.
    [5, 155, 101, 'PM10'],
    [40, 60, 112, 'PM2.5'],
    [9.0, 54, 50, 'PM2.5'],
  ] as const)('PM2.5 %s and PM10 %s give %i, set by %s', (pm2_5, pm10, aqi, pollutant) => {
    expect(usAqi(pm2_5, pm10)).toEqual({ aqi_us: aqi, aqi_us_pollutant: pollutant });
  });

  it('gives nothing without a valid concentration', () => {
    expect(usAqi(undefined, undefined)).toBeUndefined();
    expect(usAqi(-1, Number.NaN)).toBeUndefined();
    expect(usAqi(-1, 20)).toEqual({ aqi_us: 19, aqi_us_pollutant: 'PM10' });
  });

  it.each([
    [0, 'Good'],
    [50, 'Good'],
    [51, 'Moderate'],
    [101, 'Unhealthy for Sensitive Groups'],
    [151, 'Unhealthy'],
    [201, 'Very Unhealthy'],
    [301, 'Hazardous'],
    [500, 'Hazardous'],
  ] as const)('names %i %s', (index, category) => {
    expect(usAqiCategory(index)).toBe(category);
  });
});
