/**
 * One answer per day (src/site/app/day-answers.ts), on hand-made forecast days and outlooks: the
 * forecast's days while it reaches, then the outlook's most likely level, marked as the usual for
 * the season where it served climatology; a plant's own forecast value, else its category standing in.
 */
import { describe, expect, it } from 'vitest';
import type { ForecastOutlook } from '../../src/api/endpoints/forecast-outlook.js';
import type { ForecastDay } from '../../src/site/app/api.js';
import { cityToday, dayAnswers } from '../../src/site/app/day-answers.js';

const day = (date: string, tree: ForecastDay['peak_risk_tree'], hours = 24): ForecastDay =>
  ({
    date,
    hours,
    tz: '-05:00',
    peak_risk_tree: tree,
    peak_risk_grass: 'Low',
    peak_risk_weed: 'None',
    species: null,
  }) as unknown as ForecastDay;

const probabilities = (most: 'None' | 'Low' | 'Moderate' | 'High' | 'Very High') => ({
  None: 0.1,
  Low: 0.1,
  Moderate: 0.1,
  High: 0.1,
  'Very High': 0.1,
  [most]: 0.6,
});

const outlookDate = (date: string, lead: number, served: 'outlook' | 'climatology') => ({
  date,
  lead,
  categories: (['tree', 'grass', 'weed', 'ragweed'] as const).map((category) => ({
    category,
    most_likely: category === 'tree' ? 'Moderate' : 'None',
    high_or_above: 0.2,
    probabilities: probabilities(category === 'tree' ? 'Moderate' : 'None'),
    served,
    why: 'test',
    rpss: null,
  })),
});

const outlook = {
  issued: '2026-04-14',
  dates: [
    outlookDate('2026-04-14', 0, 'outlook'),
    outlookDate('2026-04-15', 1, 'outlook'),
    outlookDate('2026-04-16', 2, 'outlook'),
    outlookDate('2026-04-17', 3, 'climatology'),
  ],
} as unknown as ForecastOutlook;

const oak = { category: 'tree' as const, name: 'Oak', slug: 'oak' };

describe('one answer per day', () => {
  const days = [day('2026-04-14', 'High', 7), day('2026-04-15', 'Very High')];

  it('takes the forecast while it reaches, then the outlook, then the usual for the season', () => {
    const answers = dayAnswers({ days, hourly: [], zone: 'America/Chicago', outlook, chosen: [] });
    expect(cityToday({ days, outlook })).toBe('2026-04-14');
    expect(answers.map((a) => [a.date, a.lead, a.source, a.level])).toEqual([
      ['2026-04-14', 0, 'forecast', 'High'],
      ['2026-04-15', 1, 'forecast', 'Very High'],
      ['2026-04-16', 2, 'outlook', 'Moderate'],
      ['2026-04-17', 3, 'usual', 'Moderate'],
    ]);
    // The outlook's day keeps the chance of its level; the forecast's says how many hours it holds.
    expect(answers[2]!.readings[0]).toEqual({ key: 'tree', label: 'Tree', level: 'Moderate', source: 'outlook', chance: 0.6 });
    expect(answers[0]!.hours).toBe(7);
  });

  it("reads a plant from the forecast's hours, and lets its category stand in where they have none", () => {
    const hourly = [
      { ts: '2026-04-14T20:00:00Z', species: { Tree: { Oak: 40 } } },
      { ts: '2026-04-14T21:00:00Z', species: { Tree: { Oak: 120 } } },
    ] as never[];
    const answers = dayAnswers({ days, hourly, zone: 'America/Chicago', outlook, chosen: [oak] });
    // Today: Oak's worst hour, 120 grains/m³, on the tree range (High from 90).
    expect(answers[0]!.readings).toEqual([{ key: 'oak', label: 'Oak', level: 'High', source: 'forecast' }]);
    // Tomorrow: no Oak in the hours: tree pollen's level stands in, said so.
    expect(answers[1]!.readings).toEqual([{ key: 'oak', label: 'Oak', level: 'Very High', source: 'forecast', standIn: 'tree pollen' }]);
    // The outlook is made for categories: tree pollen speaks for Oak.
    expect(answers[2]!.readings[0]!.standIn).toBe('tree pollen');
  });

  it('is empty with neither a forecast nor an outlook', () => {
    expect(dayAnswers({ days: [], hourly: [], zone: 'UTC', outlook: null, chosen: [] })).toEqual([]);
  });
});
