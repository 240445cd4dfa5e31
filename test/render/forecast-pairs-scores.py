"""Every score of /api/forecast-skill computed again from the forecast-pairs gzip CSV alone.

An independent reader for test/render/forecast-pairs.test.ts: pandas, not the service's
TypeScript, and each formula written here from its source:

- Contingency table, Heidke skill score, POD and FAR: the WWRP/WGNE Joint Working Group on
  Forecast Verification Research, https://www.cawcr.gov.au/projects/verification/ ("Methods for
  multi-category forecasts", "Methods for dichotomous forecasts").
- Gerrity skill score: Gerrity 1992 (Mon. Wea. Rev. 120, 2709-2712) in the notation of Jolliffe &
  Stephenson 2003, ch. 4, as R's verification package computes it (cran/verification,
  R/multi.cont.R), with the sample's observed frequencies; levels never observed at the ends of
  the scale left out as docs/data.md ("Forecast skill") says.
- Spearman: pandas' rank correlation (ties share their mean rank); RMSE of log10(1 + mean).
- Persistence (day T at lead L forecast by the observed day T - L - 1), the days the references
  and the outlook are scored on, and the ranked probability skill score: docs/data.md.

Usage: python3 forecast-pairs-scores.py PAIRS.csv.gz > scores.json
Prints {"city|category|lead|period": {...}}, period "window" or a season year.
"""

import json
import math
import sys

import pandas as pd

LEVELS = ["None", "Low", "Moderate", "High", "Very High"]
K = len(LEVELS)
HIGH = LEVELS.index("High")
MIN_PAIRS = 30
FORECAST_LEADS = 3
OUTLOOK_LEADS = 8


def table_of(forecast_levels, observed_levels):
    """table[f][o]: days forecast at level f and observed at level o."""
    table = [[0] * K for _ in range(K)]
    for f, o in zip(forecast_levels, observed_levels):
        table[LEVELS.index(f)][LEVELS.index(o)] += 1
    return table


def heidke(table):
    n = sum(map(sum, table))
    p_forecast = [sum(table[i]) / n for i in range(K)]
    p_observed = [sum(table[f][i] for f in range(K)) / n for i in range(K)]
    correct = sum(table[i][i] for i in range(K)) / n
    chance = sum(pf * po for pf, po in zip(p_forecast, p_observed))
    return (correct - chance) / (1 - chance)


def gerrity(table):
    n = sum(map(sum, table))
    observed = [sum(table[f][o] for f in range(K)) for o in range(K)]
    seen = [o for o in range(K) if observed[o] > 0]
    lo, hi = seen[0], seen[-1]
    k = hi - lo + 1
    p = [observed[o] / n for o in range(lo, hi + 1)]
    # a_r = (1 - D_r) / D_r, D_r the share observed at or below level r (r = 1 .. k-1).
    a = [(1 - sum(p[: r + 1])) / sum(p[: r + 1]) for r in range(k - 1)]
    s = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(i, k):
            below = sum(1 / a[r] for r in range(i))
            above = sum(a[r] for r in range(j, k - 1))
            s[i][j] = s[j][i] = (below - (j - i) + above) / (k - 1)
    score = 0.0
    for f in range(K):
        inside = min(max(f, lo), hi)
        beyond = abs(f - inside) / (k - 1)
        for o in range(lo, hi + 1):
            score += table[f][o] * (s[inside - lo][o - lo] - beyond)
    return score / n


def categorical(forecast_values, forecast_levels, observed_values, observed_levels):
    table = table_of(forecast_levels, observed_levels)
    hits = sum(table[f][o] for f in range(HIGH, K) for o in range(HIGH, K))
    misses = sum(table[f][o] for f in range(HIGH) for o in range(HIGH, K))
    false_alarms = sum(table[f][o] for f in range(HIGH, K) for o in range(HIGH))
    n = len(forecast_levels)
    out = {
        "pairs": n,
        "table": table,
        "high": {"hits": hits, "misses": misses, "false_alarms": false_alarms},
        "heidke": None,
        "gerrity": None,
        "pod": None,
        "far": None,
        "spearman": None,
        "rmse_log": None,
    }
    if n < MIN_PAIRS:
        return out
    if len(set(observed_levels)) > 1:
        out["heidke"] = heidke(table)
        out["gerrity"] = gerrity(table)
    if hits + misses > 0:
        out["pod"] = hits / (hits + misses)
    if hits + false_alarms > 0:
        out["far"] = false_alarms / (hits + false_alarms)
    f = pd.Series(list(forecast_values), dtype=float)
    o = pd.Series(list(observed_values), dtype=float)
    if f.nunique() > 1 and o.nunique() > 1:
        out["spearman"] = float(f.corr(o, method="spearman"))
    out["rmse_log"] = math.sqrt(((f.add(1).map(math.log10) - o.add(1).map(math.log10)) ** 2).mean())
    return out


def outlook(rows, lead):
    scored = rows[rows[f"outlook_rps_{lead}"].notna()]
    n = len(scored)
    out = {"pairs": n, "rps": None, "rps_climatology": None, "rpss": None}
    if n < MIN_PAIRS:
        return out
    out["rps"] = float(scored[f"outlook_rps_{lead}"].mean())
    out["rps_climatology"] = float(scored["climatology_rps"].mean())
    if out["rps_climatology"] > 0:
        out["rpss"] = 1 - out["rps"] / out["rps_climatology"]
    return out


def period_scores(rows, lead, observed):
    """The scores at one lead over one period's rows; `observed` is the whole series (persistence reads before the period)."""
    if lead < FORECAST_LEADS:
        days = rows[rows[f"forecast_level_{lead}"].notna()]
    else:
        days = rows[rows[f"outlook_rps_{lead}"].notna()]
    scores = {"outlook": outlook(rows, lead)}
    if lead < FORECAST_LEADS:
        scores["forecast"] = categorical(
            days[f"forecast_value_{lead}"], days[f"forecast_level_{lead}"], days["observed_value"], days["observed_level"]
        )
    before = observed.reindex(days["date"] - pd.Timedelta(days=lead + 1))
    before.index = days.index
    persisted = days.assign(p_value=before["observed_value"], p_level=before["observed_level"]).dropna(subset=["p_level"])
    scores["persistence"] = categorical(
        persisted["p_value"], persisted["p_level"], persisted["observed_value"], persisted["observed_level"]
    )
    climate = days.dropna(subset=["climatology_level"])
    scores["climatology"] = categorical(
        climate["climatology_value"], climate["climatology_level"], climate["observed_value"], climate["observed_level"]
    )
    return scores


def main(path):
    pairs = pd.read_csv(path, compression="gzip", parse_dates=["date"], keep_default_na=False, na_values=[""])
    result = {}
    for (city, category), rows in pairs.groupby(["city", "category"], sort=False):
        rows = rows.sort_values("date")
        observed = rows.set_index("date")[["observed_value", "observed_level"]]
        periods = [("window", rows[rows["in_window"]])]
        periods += [(str(year), held) for year, held in rows.groupby("season_year")]
        for lead in range(OUTLOOK_LEADS):
            for name, held in periods:
                result[f"{city}|{category}|{lead}|{name}"] = period_scores(held, lead, observed)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
