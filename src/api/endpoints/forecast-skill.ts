/**
 * GET /api/forecast-skill: how good the forecast is for a city (docs/data.md, "Forecast skill"):
 * each category's forecast, persistence and climatology scored by lead day over the last 90 days
 * and each season year, with the contingency tables the scores come from, the outlook's own skill,
 * and the outlook served now. A render computes it (render/forecast-skills.ts) into the served
 * store; this handler only picks the category and lead asked for.
 */
import * as z from 'zod';
import * as S from '../../domain/verification/skill-schemas.js';
import * as D from '../../domain/schemas.js';
import type { StoreReader } from '../../store/reader.js';
import { ApiError, UnsupportedCityError } from '../contract/error.js';
import { named } from '../contract/named.js';
import { requiredCity, servedCity } from '../contract/params.js';
import { anyCase, integer, param } from '../contract/query.js';
import { route } from '../contract/route.js';
import { DATA_PREFIX, type FormParams, type Unit } from '../contract/static-forms.js';

export const SkillTable = named(
  'SkillTable',
  'How a forecast (or a reference forecast) did against what was observed: the contingency table over NAB levels and the scores made from it.',
  D.SkillTable,
);
export const OutlookSkill = named(
  'OutlookSkill',
  "The outlook's ranked probability score against climatology's, over the same days.",
  D.OutlookSkill,
);
export const SkillScores = named(
  'SkillScores',
  'The forecast, persistence, climatology and the outlook at one lead over one period.',
  S.SkillScores,
);
export const SkillLead = named(
  'SkillLead',
  'The scores at one lead day: over the trailing window, and over each season year.',
  S.SkillLead,
);
export const ServedOutlook = named(
  'ServedOutlook',
  "The outlook issued the day after the latest data day: each day's probabilities of each NAB level, the outlook's where it beat climatology over the trailing window at that lead, else climatology's.",
  S.ServedOutlook,
);
export const CategorySkill = named('CategorySkill', "One category's scores by lead day, and its outlook.", S.CategorySkill);
export const ForecastSkillResponse = named(
  'ForecastSkillResponse',
  "A city's forecast skill: the forecasts kept for it scored against its observed days, beside persistence and climatology, and its outlook.",
  S.ForecastSkill,
);
export const NoSkillError = named(
  'NoSkillError',
  "No render has computed the city's forecast skill (the functions read a store no render wrote).",
  z.object({ error: z.string(), code: z.literal('NO_FORECAST_SKILL'), city: z.string() }),
);

const CATEGORY = "'tree', 'grass', 'weed' or 'ragweed' (any case)";
const LEAD = 'a lead day from 0 to 7';

/** The city of a city unit, when a render computed its skill. */
const withSkill = (store: StoreReader, u: Unit): FormParams[] => (u.kind === 'city' && store.skills.has(u.city) ? [{ city: u.city }] : []);

export const forecastSkillRoute = route({
  path: '/api/forecast-skill',
  params: {
    city: requiredCity(),
    category: param(anyCase(S.SkillCategory.options).optional(), {
      expected: CATEGORY,
      description: `One category (${CATEGORY}; ragweed is the Weed group's Ragweed); every one when left out.`,
    }),
    lead: param(integer(0, 7).optional(), {
      expected: LEAD,
      description: `Days ahead (${LEAD}): 0 the day a forecast is issued, 1 the next day...; the provider's forecast reaches lead 2 (48 hours), the outlook lead 7. Every lead when left out.`,
    }),
  },
  response: ForecastSkillResponse,
  doc: {
    operationId: 'getForecastSkill',
    summary: 'How good the forecast is',
    description:
      "For each category and lead day, the forecast as issued (every forecast the service obtained is kept, scored on UTC days) against what was observed, beside persistence (yesterday's level: the last complete day observed before the issuing day) and climatology (the usual for the season: the median day of the earlier years within a week of the date), each as kept when issued and all three on the same days (`days`), over the trailing 90 days, those of them in season, and each season year: the contingency table over NAB levels, the Heidke and Gerrity skill scores with 95% intervals (moving-block bootstrap, 1,000 resamples), POD and FAR of High or above, the Spearman correlation and RMSE of log10(1 + daily mean). No score from fewer than 30 days, no Heidke or Gerrity from fewer than 3 observed levels or 10 days above None, no POD or FAR from fewer than 5 High days: the reason instead. The provider's forecast reaches lead 2; at every lead 0 to 7, the outlook's ranked probability skill score against climatology with its interval, and the outlook served now (probabilities of each level to 7 days ahead, kept as the build made them; climatology's where the outlook's interval is not above 0). The pairs are the monthly bulk files forecast-pairs-YYYY-MM, so that every score can be computed again. With the sample provider, the forecasts' errors and so their skill are simulated. An extension of the contract.",
    notFound: {
      description: 'Unsupported city (UNSUPPORTED_CITY), or no render has computed its skill (NO_FORECAST_SKILL).',
      schema: z.union([UnsupportedCityError, NoSkillError]),
    },
  },
  llms: "/api/forecast-skill?city=SLUG&category=tree|grass|weed|ragweed&lead=1: how good the forecast is, by lead day (lead=0 to 7, or all), beside yesterday's level (persistence) and the usual for the season (climatology) on the same days (contingency tables, Heidke and Gerrity with 95% intervals, POD and FAR of High, Spearman, RMSE), over the last 90 days, its days in season and each season year; the outlook to 7 days with its own skill and interval",
  tool: {
    name: 'get_forecast_skill',
    title: 'How good the forecast is',
    description:
      "How well the pollen forecast did for a city, by category and lead day (0 today ... 2 for the 48-hour forecast; to 7 for the outlook), against what was observed and beside yesterday's level (persistence) and the usual for the season (climatology), all on the same days: for the last 90 days (window), its days in season (window_in_season) and each season year, the share of days in the right NAB level beyond chance (heidke, gerrity: 1 perfect, 0 no skill) with a 95% interval (when the intervals of two forecasts overlap, neither is shown better), POD (share of High days forecast) and FAR (share of forecast High days that were not), with the contingency table and the number of days; null scores come with their reason. outlook: the probability of each level to 7 days ahead, climatology's where the outlook has not beaten it with 95% confidence. Use it to say how far a forecast can be trusted.",
  },
  forms: [{ file: `${DATA_PREFIX}/forecast-skill/{city}.json`, unit: 'city', enumerate: withSkill }],
  handle: ({ city: slug, category, lead }, { store, cities }) => {
    const city = servedCity(cities, slug);
    const skill = store.skills.get(city.slug);
    if (!skill)
      throw new ApiError(404, {
        error: `No forecast skill for ${city.slug} yet: a render computes it from the forecasts kept`,
        code: 'NO_FORECAST_SKILL',
        city: city.slug,
      });
    if (category === undefined && lead === undefined) return { body: skill };
    const categories = skill.categories
      .filter((c) => category === undefined || c.category === category)
      .map((c) =>
        lead === undefined
          ? c
          : {
              ...c,
              leads: c.leads.filter((l) => l.lead === lead),
              outlook: c.outlook && { ...c.outlook, days: c.outlook.days.filter((d) => d.lead === lead) },
            },
      );
    return { body: { ...skill, categories } };
  },
});
