/**
 * The city panel's words for the forecast skill (src/site/app/skill-words.ts), without a page: the
 * days with pollen and the days right counted from the answer's contingency tables, the verdict
 * from the scores' intervals, what the outlook after tomorrow is, and why a forecast cannot be
 * judged, in the terms a reader checks against the season.
 */
import { describe, expect, it } from 'vitest';
import type { SkillTable } from '../../src/domain/schemas.js';
import type { CategorySkill, ForecastSkill, ServedOutlookDay, SkillScores } from '../../src/domain/verification/skill-schemas.js';
import { labelledLeads, wrapWords } from '../../src/site/app/skill-charts.js';
import { outlookSentence, pollenDays, providersSentence, scoresLine, skillSentence, tooNarrow } from '../../src/site/app/skill-words.js';

/** A table of 5 x 5 days: forecast level by row, observed level by column, `cells` as [f, o, days]. */
const tableOf = (cells: Array<[number, number, number]>): number[][] => {
  const table = Array.from({ length: 5 }, () => new Array<number>(5).fill(0));
  for (const [f, o, days] of cells) table[f]![o]! += days;
  return table;
};

/** A forecast's table and its score of levels (the other scores left out: the words read none of them). */
/** A verdict as the answer gives it (the words read its verdict and words only). */
const verdict = (reference: 'persistence' | 'climatology', v: 'better' | 'no better' | 'worse' | null) => ({
  reference,
  verdict: v,
  words: v === null ? 'not compared' : `${v} than ${reference === 'persistence' ? "yesterday's level" : 'the usual for the season'}`,
  difference: v === null ? null : v === 'better' ? 0.2 : v === 'worse' ? -0.2 : 0.01,
  difference_interval: v === null ? null : v === 'better' ? [0.1, 0.3] : v === 'worse' ? [-0.3, -0.1] : [-0.05, 0.07],
  heidke_difference: null,
  note: null,
  reason: v === null ? 'too few levels' : null,
});

const scored = (
  cells: Array<[number, number, number]>,
  gerrity: number | null,
  interval: [number, number] | null,
  verdicts?: Array<ReturnType<typeof verdict>>,
): SkillTable => ({
  ...(verdicts ? { verdicts } : {}),
  table: tableOf(cells),
  high: { hits: 0, misses: 0, false_alarms: 0 },
  heidke: gerrity,
  heidke_interval: interval,
  gerrity,
  gerrity_interval: interval,
  pod: null,
  far: null,
  spearman: null,
  rmse_log: null,
  score_reasons: gerrity === null ? { gerrity: 'too few levels' } : {},
});

const NO_OUTLOOK = {
  days: 0,
  rps: null,
  rps_climatology: null,
  rpss: null,
  rpss_interval: null,
  beats_climatology: null,
  verdict: null,
  reason: 'none',
};

const windowOf = (w: Partial<SkillScores> & Pick<SkillScores, 'days' | 'forecast'>): SkillScores => ({
  from: '2026-02-24',
  to: '2026-05-24',
  reason: null,
  persistence: null,
  climatology: null,
  left_out: {},
  outlook: NO_OUTLOOK,
  served: NO_OUTLOOK,
  side_by_side: { days: 0, reason: 'one provider', providers: [], persistence: null, climatology: null, left_out: {} },
  ...w,
});

const categoryOf = (window: SkillScores, outlookDays: Array<Pick<ServedOutlookDay, 'lead' | 'served'>> | null = null): CategorySkill => ({
  category: 'tree',
  leads: [{ lead: 1, window, window_in_season: window, years: [] }],
  outlook:
    outlookDays &&
    ({
      issued: '2026-05-25T06:00:00Z',
      days: outlookDays.map((d) => ({
        ...d,
        date: '2026-05-25',
        probabilities: null,
        why: '',
        outlook: null,
        climatology: null,
        members: 0,
        anomaly_weight: 0,
        rpss: null,
        rpss_interval: null,
      })),
    } as CategorySkill['outlook']),
});

const skillOf = (simulated = false): ForecastSkill =>
  ({
    city: 'austin',
    window: { days: 90, from: '2026-02-24', to: '2026-05-24' },
    ...(simulated ? { simulated: true } : {}),
  }) as ForecastSkill;

// 90 days: 50 None (all forecast None), 40 with pollen, 31 of them forecast at their level.
const FORECAST: Array<[number, number, number]> = [
  [0, 0, 50],
  [1, 1, 10],
  [2, 2, 15],
  [3, 3, 6],
  [2, 1, 4],
  [1, 2, 3],
  [2, 3, 2],
];
const YESTERDAY: Array<[number, number, number]> = [
  [0, 0, 48],
  [1, 0, 2],
  [1, 1, 8],
  [2, 2, 12],
  [3, 3, 4],
  [2, 1, 6],
  [3, 2, 5],
  [2, 3, 4],
  [0, 1, 1],
];
const USUAL: Array<[number, number, number]> = [
  [1, 0, 50],
  [1, 1, 15],
  [1, 2, 20],
  [1, 3, 5],
];

describe('the days with pollen and the days right, from a contingency table', () => {
  it('counts the days observed above None and those forecast at the level observed', () => {
    expect(pollenDays(tableOf(FORECAST))).toEqual({ days: 40, right: 31 });
    expect(pollenDays(tableOf(YESTERDAY))).toEqual({ days: 40, right: 24 });
    // Right on the None days does not count: those are not days with pollen.
    expect(pollenDays(tableOf([[0, 0, 90]]))).toEqual({ days: 0, right: 0 });
  });
});

describe("the section's sentence", () => {
  const both = windowOf({
    days: 90,
    forecast: scored(FORECAST, 0.7, [0.6, 0.8], [verdict('persistence', 'better'), verdict('climatology', 'no better')]),
    persistence: scored(YESTERDAY, 0.4, [0.3, 0.55]),
    climatology: scored(USUAL, 0.62, [0.5, 0.7]),
  });

  it("says the days right on the days with pollen, beside yesterday's level and the usual for the season, then the verdict in plain words", () => {
    const s = skillSentence(skillOf(), categoryOf(both));
    expect(s).toBe(
      "On the 40 days with tree pollen in the last 90 days, the forecast made the day before had the level right on 31; yesterday's level would have been right on 24 and the usual for the season on 15. " +
        "Counting how far off each miss was, over all 90 days checked, the forecast was better than yesterday's level, and was no better than the usual for the season.",
    );
    expect(s).not.toMatch(/Gerrity|Heidke|RPSS|skill score/);
  });

  it('says only what the answer gives: no reference without its table', () => {
    const s = skillSentence(
      skillOf(),
      categoryOf({ ...both, climatology: null, days: 85, forecast: scored(FORECAST, 0.7, [0.6, 0.8], [verdict('persistence', 'better')]) }),
    );
    expect(s).toBe(
      "On the 40 days with tree pollen in the last 90 days, of the 85 that could be checked, the forecast made the day before had the level right on 31; yesterday's level would have been right on 24. " +
        "Counting how far off each miss was, over all 85 days checked, the forecast was better than yesterday's level.",
    );
    expect(
      skillSentence(
        skillOf(),
        categoryOf({ ...both, persistence: null, climatology: null, forecast: scored(FORECAST, 0.7, [0.6, 0.8], []) }),
      ),
    ).toBe('On the 40 days with tree pollen in the last 90 days, the forecast made the day before had the level right on 31.');
  });

  it('says first that the sample provider’s skill is invented', () => {
    expect(skillSentence(skillOf(true), categoryOf(both))).toMatch(
      /^Simulated skill \(the sample provider's forecast errors are invented\): on the 40 days with tree pollen/,
    );
  });

  it('says why the days right tell too little: too few days, a narrow range, no pollen at all', () => {
    const few = windowOf({ days: 20, reason: '20 paired days, fewer than the 30 a score needs', forecast: scored(FORECAST, null, null) });
    expect(skillSentence(skillOf(), categoryOf(few))).toMatch(
      /right on 31\. That is too few to judge the forecast by yet: 20 paired days, fewer than the 30 a score needs\.$/,
    );
    const narrow = windowOf({
      days: 90,
      forecast: scored(
        [
          [0, 0, 70],
          [1, 1, 20],
        ],
        null,
        null,
      ),
    });
    expect(skillSentence(skillOf(), categoryOf(narrow))).toBe(
      "On the 20 days with tree pollen in the last 90 days, the forecast made the day before had the level right on 20. That is too little to judge the forecast by: the tree pollen was only None or Low (None on 70 days, Low on 20 days): too narrow a range to judge the forecast's levels.",
    );
    const none = windowOf({ days: 90, forecast: scored([[0, 0, 90]], null, null) });
    expect(skillSentence(skillOf(), categoryOf(none))).toBe(
      'In the last 90 days, the tree pollen was None on all 90 days: with nothing else to tell, a right forecast cannot be told from a lucky one.',
    );
    expect(skillSentence(skillOf(), categoryOf(windowOf({ days: 0, forecast: null })))).toBe(
      'No tree forecast made the day before has been checked here in the last 90 days.',
    );
  });

  it('gives the scores with their intervals in the fine print, naming the score once with a link to the glossary', () => {
    const words = scoresLine(categoryOf(both));
    const links = words.filter((w) => typeof w !== 'string');
    expect(links).toEqual([{ text: 'Gerrity skill score', href: '#glossary' }]);
    const text = words.map((w) => (typeof w === 'string' ? w : w.text)).join('');
    expect(text).toContain(
      "forecast made the day before: 0.70 (0.60 to 0.80); yesterday's level 0.40 (0.30 to 0.55); the usual for the season 0.62 (0.50 to 0.70)",
    );
    expect(text).toContain('over all 90 days checked, None days too');
    expect(scoresLine(categoryOf(windowOf({ days: 90, forecast: scored([[0, 0, 90]], null, null) })))).toEqual([]);
  });
});

describe('which provider did better', () => {
  it('counts the days right of each provider scored side by side, and names no provider without a score', () => {
    const side = {
      days: 60,
      reason: null,
      providers: [
        { provider: 'sample', days: 60, reason: null, forecast: scored(FORECAST, 0.5, [0.4, 0.6], [verdict('persistence', 'no better')]) },
        {
          provider: 'atmospore',
          days: 60,
          reason: null,
          forecast: scored(
            USUAL.map(([, o, n]) => [o, o, n]),
            0.95,
            [0.9, 1],
            [verdict('persistence', 'better')],
          ),
        },
        { provider: 'ambee', days: 1, reason: 'too few', forecast: null },
      ],
      persistence: scored(YESTERDAY, 0.4, [0.3, 0.5]),
      climatology: null,
      left_out: {},
    };
    const c = categoryOf(windowOf({ days: 90, forecast: scored(FORECAST, 0.5, [0.4, 0.6]), side_by_side: side }));
    expect(providersSentence(skillOf(), c, 'Austin')).toBe(
      "In Austin, on the 60 days in the last 90 that both providers forecast, 40 had tree pollen: Atmospore's forecast made the day before had the level right on 40 and Sample's on 31 (yesterday's level: 24). Counting how far off each miss was, Atmospore's was better than yesterday's level and Sample's was no better than yesterday's level.",
    );
    // Without verdicts (no reference compared), no sentence of who did better: overlapping intervals are none.
    const close = {
      ...side,
      persistence: null,
      providers: [
        { ...side.providers[0]!, forecast: scored(FORECAST, 0.5, [0.4, 0.6], []) },
        { ...side.providers[1]!, forecast: scored(FORECAST, 0.55, [0.45, 0.65], []) },
      ],
    };
    expect(
      providersSentence(skillOf(), { ...c, leads: [{ ...c.leads[0]!, window: { ...c.leads[0]!.window, side_by_side: close } }] }, 'Austin'),
    ).toMatch(/had the level right on 31 and Sample's on 31\.$/);
    expect(providersSentence(skillOf(), categoryOf(windowOf({ days: 90, forecast: null })), 'Austin')).toBeUndefined();
  });
});

describe('the outlook after tomorrow', () => {
  const w = windowOf({ days: 90, forecast: null });
  const days = (served: Array<'outlook' | 'climatology'>) => served.map((s, i) => ({ lead: i, served: s }));

  it('says in a sentence when the outlook has not done better than the usual for the season after tomorrow', () => {
    expect(
      outlookSentence(
        categoryOf(
          w,
          days(['outlook', 'outlook', 'climatology', 'climatology', 'climatology', 'climatology', 'climatology', 'climatology']),
        ),
      ),
    ).toBe(
      'For tree pollen on the days after tomorrow, the outlook has not done better than the usual for the season, so the usual is what the 7-day strip shows.',
    );
  });

  it('says on which days ahead the strip shows the outlook, and on which the usual', () => {
    expect(
      outlookSentence(
        categoryOf(w, days(['outlook', 'outlook', 'outlook', 'outlook', 'outlook', 'climatology', 'climatology', 'outlook'])),
      ),
    ).toBe(
      'For tree pollen on the days after tomorrow, the outlook has done better than the usual for the season 2 to 4 and 7 days ahead, and the 7-day strip shows it there; 5 and 6 days ahead it has not, so the strip shows the usual.',
    );
    expect(
      outlookSentence(
        categoryOf(w, days(['climatology', 'climatology', 'outlook', 'outlook', 'outlook', 'outlook', 'outlook', 'outlook'])),
      ),
    ).toBe(
      'For tree pollen on the days after tomorrow, the outlook has done better than the usual for the season, and the 7-day strip shows it.',
    );
    expect(outlookSentence(categoryOf(w, null))).toBeUndefined();
  });
});

describe("the charts' labels", () => {
  it('labels every day ahead where there is room, else every second, so that two digits never touch', () => {
    expect(labelledLeads(7, 200)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(labelledLeads(13, 340)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(labelledLeads(13, 200)).toEqual([0, 2, 4, 6, 8, 10, 12]);
  });

  it('wraps a caption into lines of the width, a longer word alone', () => {
    expect(wrapWords('the forecast reaches 2 days ahead', 14)).toEqual(['the forecast', 'reaches 2 days', 'ahead']);
  });
});

describe("the panel's words for a forecast that cannot be judged", () => {
  it('names the one level observed, counting the days by what was observed, not forecast', () => {
    expect(
      tooNarrow(
        tableOf([
          [0, 0, 80],
          [1, 0, 10],
        ]),
        'grass',
      ),
    ).toBe('the grass pollen was None on all 90 days: with nothing else to tell, a right forecast cannot be told from a lucky one');
  });

  it('names the two levels observed with their days', () => {
    expect(
      tooNarrow(
        tableOf([
          [0, 0, 70],
          [1, 0, 13],
          [1, 1, 6],
          [0, 1, 1],
        ]),
        'tree',
      ),
    ).toBe("the tree pollen was only None or Low (None on 83 days, Low on 7 days): too narrow a range to judge the forecast's levels");
  });

  it('counts the days above None when three levels or more were observed', () => {
    expect(
      tooNarrow(
        tableOf([
          [0, 0, 80],
          [1, 1, 4],
          [2, 2, 1],
          [0, 3, 1],
        ]),
        'weed',
      ),
    ).toBe("the weed pollen was above None on only 6 days: too few to judge the forecast's levels");
    // Every day above None, in three levels: none of these reasons.
    expect(
      tooNarrow(
        tableOf([
          [1, 1, 30],
          [2, 2, 20],
          [3, 3, 5],
        ]),
        'weed',
      ),
    ).toBeUndefined();
  });
});
