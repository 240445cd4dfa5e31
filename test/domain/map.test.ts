import { describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber } from '../../src/domain/dates.js';
import { crossCityRow, mapDay } from '../../src/domain/day-values.js';
import { mapCollection, mapFeature } from '../../src/domain/map.js';
import { hour } from '../helpers/hours.js';

const D = dayNumber('2025-09-02');
const austin = DEFAULT_CITIES.get('austin')!;
const today = [
  hour(D, 9, { tree: 31, grass: 4, weed: 12, species: { Tree: { Oak: 20, Elm: 11 }, Weed: { Ragweed: 12, Nettle: 0 } } }),
  hour(D, 10, { tree: 2, grass: 25, weed: 3, species: { Weed: { Ragweed: 1 } } }),
];
const yesterday = [hour(D - 1, 12, { tree: 1600, grass: 0, weed: null })];

describe('crossCityRow', () => {
  it('sums the category maxima and reports the peak weed', () => {
    expect(crossCityRow('austin', D, today)).toEqual({
      city: 'austin',
      date: '2025-09-02',
      count: 31 + 25 + 12,
      source: 'sample',
      is_forecast: false,
      max_weed: 12,
    });
  });

  it('reports max_weed 0 when weed was never measured', () => {
    expect(crossCityRow('austin', D - 1, yesterday)).toMatchObject({ count: 1600, max_weed: 0 });
  });
});

describe('mapFeature', () => {
  const feature = mapFeature(austin, [mapDay(D - 2, []), mapDay(D - 1, yesterday), mapDay(D, today)]);

  it('is a GeoJSON point at the city, longitude first', () => {
    expect(feature.type).toBe('Feature');
    expect(feature.geometry).toEqual({ type: 'Point', coordinates: [austin.lon, austin.lat] });
  });

  it('carries the daily maxima, the worst hourly risks and their severities', () => {
    const { series, ...props } = feature.properties;
    expect(props).toEqual({
      city: 'austin',
      value_basis: 'daily-category-maxima',
      count: 68,
      tree: 31,
      grass: 25,
      weed: 12,
      ragweed: 12,
      max_weed: 12,
      risk_tree: 'Moderate', // Oak 20
      risk_grass: 'High', // 25
      risk_weed: 'Moderate', // Ragweed 12
      risk_ragweed: 'Moderate',
      sev_tree: 2,
      sev_grass: 3,
      sev_weed: 2,
      sev_ragweed: 2,
      sev_total: 3,
      timezone: 'America/Chicago',
    });
    expect(series).toHaveLength(3);
  });

  it('has a three-day ascending series with nulls for a day without data', () => {
    expect(feature.properties.series.map((d) => d.date)).toEqual(['2025-08-31', '2025-09-01', '2025-09-02']);
    expect(feature.properties.series[0]).toEqual({
      date: '2025-08-31',
      tree: null,
      grass: null,
      weed: null,
      ragweed: null,
      risk_tree: null,
      risk_grass: null,
      risk_weed: null,
      risk_ragweed: null,
      timezone: null,
    });
    expect(feature.properties.series[1]).toMatchObject({
      tree: 1600,
      risk_tree: 'Very High',
      grass: 0,
      risk_grass: 'None',
      weed: null,
      ragweed: null,
    });
  });

  it('wraps features in a collection with the resolved date', () => {
    const fc = mapCollection(D, [feature]);
    expect(fc).toMatchObject({ type: 'FeatureCollection', date: '2025-09-02', aggregation: 'daily-category-maxima' });
    expect(fc.features).toHaveLength(1);
  });
});
