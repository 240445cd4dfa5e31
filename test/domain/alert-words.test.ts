import { describe, expect, it } from 'vitest';
import { expectedInWords, nothingExpected, reachesLevel, watchedInWords } from '../../src/domain/alert-words.js';
import { dateInWords } from '../../src/domain/dates.js';

const DATES = ['2026-03-07', '2026-03-08', '2026-03-09'];
const tree = (risk: 'Low' | 'Moderate' | 'High' | 'Very High') => ({ category: 'tree' as const, risk, peak: 100 });
const oak = (risk: 'Low' | 'Moderate' | 'High' | 'Very High') => ({ category: 'tree' as const, name: 'Oak', slug: 'oak', risk, peak: 50 });

describe('alert words', () => {
  it('names a local date as its own day, whatever the zone it is read in', () => {
    expect([dateInWords('2026-03-08'), dateInWords('2026-11-01'), dateInWords('2026-12-31')]).toEqual([
      'Sun, Mar 8',
      'Sun, Nov 1',
      'Thu, Dec 31',
    ]);
  });

  it('names what is watched: categories as pollen, plants by name', () => {
    expect(watchedInWords({ categories: ['tree', 'grass', 'weed', 'ragweed'], species: [] })).toBe('tree, grass, weed or ragweed pollen');
    expect(watchedInWords({ categories: [], species: [{ name: 'Oak' }, { name: 'Ragweed' }] })).toBe('Oak or Ragweed');
    expect(watchedInWords({ categories: ['tree'], species: [{ name: 'Oak' }] })).toBe('tree pollen or Oak');
  });

  it('says nothing is expected at the level, for what is watched, over the dates checked', () => {
    const w = { min: 'High' as const, categories: [], species: [{ name: 'Oak' }, { name: 'Ragweed' }] };
    expect(nothingExpected({ ...w, dates: DATES })).toBe(
      'Nothing expected at High or above for Oak or Ragweed from Sat, Mar 7 to Mon, Mar 9.',
    );
    expect(nothingExpected({ ...w, dates: ['2026-03-07'] })).toBe('Nothing expected at High or above for Oak or Ragweed on Sat, Mar 7.');
    expect(nothingExpected({ ...w, dates: [] })).toBe('Nothing expected at High or above for Oak or Ragweed.');
  });

  it('reads a higher level from an alert at a lower one: only what reaches it', () => {
    const alert = { date: '2026-03-08', categories: [tree('Moderate')], species: [oak('High')] };
    expect([reachesLevel(alert, 'Low'), reachesLevel(alert, 'High'), reachesLevel(alert, 'Very High')]).toEqual([true, true, false]);
    expect(expectedInWords(alert, 'Low')).toBe('Sun, Mar 8: Moderate tree pollen, High Oak pollen');
    expect(expectedInWords(alert, 'High')).toBe('Sun, Mar 8: High Oak pollen');
  });
});
