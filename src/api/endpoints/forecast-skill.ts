/**
 * GET /api/forecast-skill: how good the forecast is for a city (docs/data.md, "Forecast skill"):
 * each category's forecast, persistence and climatology scored by lead day over the last 90 days
 * and each season year, each provider's forecast side by side on the days they share, with the contingency tables the scores come from, the outlook's own skill,
 * and the outlook served now. A render computes it (scoring/score-cities.ts) into the served
 * store; this handler only picks the category and lead asked for.
 */
import * as z from 'zod';
import { named } from '../../domain/schema-names.js';
import { GRADED } from '../../domain/species/risk.js';
import { COVERAGE, RESAMPLES } from '../../domain/verification/bootstrap.js';
import { WINDOW_DAYS } from '../../domain/verification/forecast-skill.js';
import { PROVIDER_LEADS } from '../../domain/verification/leads.js';
import { OUTLOOK_LEADS } from '../../domain/verification/outlook.js';
import { MIN_ABOVE_NONE, MIN_EVENTS, MIN_LEVEL_DAYS, MIN_LEVELS, MIN_PAIRS } from '../../domain/verification/scores.js';
import * as S from '../../domain/verification/skill-schemas.js';
import type { StoreReader } from '../../store/reader.js';
import { ApiError, UnsupportedCityError } from '../contract/error.js';
import { requiredCity, servedCity } from '../contract/params.js';
import { anyCase, integer, oneOfWords, param } from '../contract/query.js';
import { route } from '../contract/route.js';
import { DATA_PREFIX, type FormParams, type Unit } from '../contract/static-forms.js';

export const NoSkillError = named(
  'NoSkillError',
  "No render has computed the city's forecast skill (the functions read a store no render wrote).",
  z.object({ error: z.string(), code: z.literal('NO_FORECAST_SKILL'), city: z.string() }),
);

const CATEGORY = `${oneOfWords(GRADED)} (any case)`;

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
    lead: param(integer(0, PROVIDER_LEADS - 1).optional(), {
      description: `Days ahead, 0 to ${PROVIDER_LEADS - 1}: 0 the day a forecast is issued, 1 the next day...; an hourly provider's 48-hour forecast reaches lead 2, a daily provider's lead ${PROVIDER_LEADS - 1}, the outlook lead ${OUTLOOK_LEADS - 1}; the answer's leads go to ${OUTLOOK_LEADS - 1}, or as far as a kept forecast reaches (a lead beyond them: no lead). Every lead when left out.`,
    }),
  },
  response: S.ForecastSkill,
  doc: {
    operationId: 'getForecastSkill',
    summary: 'How good the forecast is',
    description: `For each category and lead day, the forecast as issued (every forecast the service obtained is kept, scored on UTC days) against what was observed, beside persistence (yesterday's level: the last complete day observed before the issuing day) and climatology (the usual for the season: the median day of the earlier years within a week of the date), each as kept when issued and all three on the same days (\`days\`), over the trailing ${WINDOW_DAYS} days, those of them in season, and each season year: the contingency table over NAB levels, the Heidke and Gerrity skill scores with ${COVERAGE * 100}% intervals (moving-block bootstrap, ${RESAMPLES.toLocaleString('en-US')} resamples), POD and FAR of High or above, the Spearman correlation and RMSE of log10(1 + daily mean). No score from fewer than ${MIN_PAIRS} days, no Heidke or Gerrity from fewer than ${MIN_LEVELS} observed levels, ${MIN_ABOVE_NONE} days above None or ${MIN_LEVEL_DAYS} days at any observed level, no POD or FAR from fewer than ${MIN_EVENTS} High days, no Spearman, RMSE or RPSS where every observed day was None, no RPSS where the outlook was climatology every day: the reason instead. Each forecast's table carries a verdict against each reference (better, no better or worse than yesterday's level or the usual for the season), from the interval of the difference of their Gerrity scores over the same resampled days. An hourly provider's forecast reaches lead 2 (48 hours), a daily provider's to lead ${PROVIDER_LEADS - 1}; each score's \`side_by_side\` scores every provider whose forecasts are kept for the city (whoever wrote the observed day) on the days they all have a forecast for, beside persistence and climatology on the same days with the same resamples, each provider with its days and, where it is not compared (beyond its reach, or a forecast on fewer than ${MIN_PAIRS} days), why. At every lead 0 to ${OUTLOOK_LEADS - 1}, the outlook's ranked probability skill score against climatology with its interval, and the outlook served now (probabilities of each level to ${OUTLOOK_LEADS - 1} days ahead, kept as the build made them; climatology's where the outlook's interval is not above 0). The pairs are the monthly bulk files forecast-pairs-YYYY-MM, so that every score can be computed again. \`forecast\` compares a day only with the forecasts of the provider that wrote it: where the served days come from several providers (a store some of whose days another provider replaced), \`provider\` is null, \`providers\` lists them, and each score's \`by_provider\` says how many of its days are each one's. With the sample provider, the forecasts' errors and so their skill are simulated. An extension of the contract.`,
    notFound: {
      description: 'Unsupported city (UNSUPPORTED_CITY), or no render has computed its skill (NO_FORECAST_SKILL).',
      schema: z.union([UnsupportedCityError, NoSkillError]),
    },
  },
  llms: `how good the forecast is, by lead day (one lead, or all), each provider's side by side on the same days, beside yesterday's level (persistence) and the usual for the season (climatology) on the same days (contingency tables, Heidke and Gerrity with 95% intervals, POD and FAR of High, Spearman, RMSE), over the last 90 days, its days in season and each season year; the outlook to ${OUTLOOK_LEADS - 1} days with its own skill and interval`,
  tool: {
    name: 'get_forecast_skill',
    title: 'How good the forecast is',
    description:
      "How well the pollen forecast did for a city, by category and lead day (0 today ... 2 for a 48-hour forecast, 13 for a daily provider's; to 7 for the outlook), against what was observed and beside yesterday's level (persistence) and the usual for the season (climatology), all on the same days: for the last 90 days (window), its days in season (window_in_season) and each season year, the share of days in the right NAB level beyond chance (heidke, gerrity: 1 perfect, 0 no skill) with a 95% interval, POD (share of High days forecast) and FAR (share of forecast High days that were not), with the contingency table and the number of days; null scores come with their reason. verdicts: per table, whether the forecast was better, no better or worse than yesterday's level and than the usual for the season, from the 95% interval of the difference of their Gerrity scores on the same resampled days (not from whether two intervals overlap), in words to quote. side_by_side: each provider's forecast scored on the days they all share, beside persistence and climatology on those days, to say which provider did better. outlook: the probability of each level to 7 days ahead, climatology's where the outlook has not beaten it with 95% confidence. Use it to say how far a forecast can be trusted.",
  },
  forms: [{ file: `${DATA_PREFIX}/forecast-skill/{city}.json`, unit: 'city', enumerate: withSkill }],
  handle: ({ city: slug, category, lead }, { store, cities }) => {
    const city = servedCity(cities, slug);
    const skill = store.skills.get(city.slug);
    if (!skill)
      throw new ApiError(
        404,
        {
          error: `No forecast skill for ${city.slug} yet: a render computes it from the forecasts kept`,
          code: 'NO_FORECAST_SKILL',
          city: city.slug,
        },
        { schema: NoSkillError },
      );
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
