"""Every point score of /api/forecast-skill computed again from the monthly forecast-pairs gzip CSVs alone.

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
- Which days each comparison is scored on (the forecast and the references present on half its
  days or more, on their common days; side by side, the providers with a forecast on MIN_PAIRS of
  the period's days or more, on the days they all have one, with the references likewise), when a score of levels or POD is given, the window (the
  last 90 days to its end), the days in season, what was served, and the ranked probability skill
  score: docs/data.md, "Forecast skill"; the days each observed level needs for a score of levels,
  and the verdicts' differences (the forecast's Gerrity score less each reference's): docs/decisions.md.

Usage: python3 forecast-pairs-scores.py WINDOW_END PAIRS-YYYY-MM.csv.gz ... > scores.json
Prints {"city|category|lead|period": {...}}, period "window", "window_in_season" or a season year.
A provider's forecast is in the columns forecast_<provider>_{value,level,issued}_<lead>; the
forecast a day is compared with alone is that of the provider of the observed day (`provider`).
"""

import json
import math
import sys

import pandas as pd

LEVELS = ["None", "Low", "Moderate", "High", "Very High"]
K = len(LEVELS)
HIGH = LEVELS.index("High")
MIN_PAIRS = 30
MIN_EVENTS = 5
MIN_LEVELS = 3
MIN_ABOVE_NONE = 10
MIN_LEVEL_DAYS = 5
WINDOW_DAYS = 90
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
    counts = pd.Series(list(observed_levels)).value_counts()
    above_none = n - int(counts.get("None", 0))
    # Every observed level with MIN_LEVEL_DAYS days or more, as docs/decisions.md says.
    if len(counts) >= MIN_LEVELS and above_none >= MIN_ABOVE_NONE and counts.min() >= MIN_LEVEL_DAYS:
        out["heidke"] = heidke(table)
        out["gerrity"] = gerrity(table)
    below_high = n - (hits + misses)
    if hits + misses >= MIN_EVENTS and below_high >= MIN_EVENTS:
        out["pod"] = hits / (hits + misses)
        if hits + false_alarms > 0:
            out["far"] = false_alarms / (hits + false_alarms)
    if above_none == 0:
        # Every observed day None: no error or correlation of quiet days.
        return out
    f = pd.Series(list(forecast_values), dtype=float)
    o = pd.Series(list(observed_values), dtype=float)
    if f.nunique() > 1 and o.nunique() > 1:
        out["spearman"] = float(f.corr(o, method="spearman"))
    out["rmse_log"] = math.sqrt(((f.add(1).map(math.log10) - o.add(1).map(math.log10)) ** 2).mean())
    return out


def with_differences(forecast, refs):
    """The forecast's Gerrity and Heidke scores less each compared reference's: what its verdicts are read from."""
    if forecast is None:
        return None
    forecast["differences"] = {}
    for name, ref in refs.items():
        if ref is None:
            continue
        both = forecast["gerrity"] is not None and ref["gerrity"] is not None
        forecast["differences"][name] = {
            "gerrity": forecast["gerrity"] - ref["gerrity"] if both else None,
            "heidke": forecast["heidke"] - ref["heidke"] if both else None,
        }
    return forecast


def skill_score(rps, climatology, observed_levels):
    """Mean scores and the ranked probability skill score of two aligned columns: none where every
    observed day was None or the outlook was climatology on every day."""
    n = len(rps)
    out = {"days": n, "rps": None, "rps_climatology": None, "rpss": None}
    if n < MIN_PAIRS:
        return out
    out["rps"] = float(rps.mean())
    out["rps_climatology"] = float(climatology.mean())
    quiet = (observed_levels == "None").all()
    same = (rps.to_numpy() == climatology.to_numpy()).all()
    if climatology.sum() > 0 and not quiet and not same:
        out["rpss"] = 1 - rps.sum() / climatology.sum()
    return out


def outlooks(rows, lead):
    scored = rows[rows[f"outlook_rps_{lead}"].notna() & rows["climatology_rps"].notna()]
    served = scored[scored[f"served_{lead}"].notna()]
    served_rps = served[f"outlook_rps_{lead}"].where(served[f"served_{lead}"] == "outlook", served["climatology_rps"])
    return {
        "outlook": skill_score(scored[f"outlook_rps_{lead}"], scored["climatology_rps"], scored["observed_level"]),
        "served": skill_score(served_rps, served["climatology_rps"], served["observed_level"]),
    }


def references(paired, lead):
    """The days of `paired` scored, and which references are compared: each present on half of them or more."""
    with_persistence = paired[f"persistence_level_{lead}"].notna()
    with_climatology = paired["climatology_level"].notna()
    persistence = with_persistence.sum() > 0 and 2 * with_persistence.sum() >= len(paired)
    climatology = with_climatology.sum() > 0 and 2 * with_climatology.sum() >= len(paired)
    keep = pd.Series(True, index=paired.index)
    if persistence:
        keep &= with_persistence
    if climatology:
        keep &= with_climatology
    return paired[keep], persistence, climatology


def reference_scores(days, lead, persistence, climatology):
    observed = (days["observed_value"], days["observed_level"])
    return {
        "persistence": (
            categorical(days[f"persistence_value_{lead}"], days[f"persistence_level_{lead}"], *observed) if persistence else None
        ),
        "climatology": categorical(days["climatology_value"], days["climatology_level"], *observed) if climatology else None,
    }


def side_by_side(rows, lead, providers):
    """Each provider's forecast with MIN_PAIRS days or more here, on the days they all share, with the references on them."""
    compared = [p for p in providers if f"forecast_{p}_level_{lead}" in rows and rows[f"forecast_{p}_level_{lead}"].notna().sum() >= MIN_PAIRS]
    out = {"providers": {p: None for p in providers}, "days": 0, "persistence": None, "climatology": None}
    if not compared:
        return out
    shared = rows
    for p in compared:
        shared = shared[shared[f"forecast_{p}_level_{lead}"].notna()]
    days, persistence, climatology = references(shared, lead)
    out["days"] = len(days)
    observed = (days["observed_value"], days["observed_level"])
    out.update(reference_scores(days, lead, persistence, climatology))
    refs = {"persistence": out["persistence"], "climatology": out["climatology"]}
    for p in compared:
        out["providers"][p] = with_differences(
            categorical(days[f"forecast_{p}_value_{lead}"], days[f"forecast_{p}_level_{lead}"], *observed), refs
        )
    return out


def period_scores(rows, lead, reach, providers):
    """The scores at one lead over one period's rows."""
    scores = outlooks(rows, lead) if lead < OUTLOOK_LEADS else {}
    scores["side_by_side"] = side_by_side(rows, lead, providers)
    if lead >= reach:
        scores.update({"days": 0, "forecast": None, "persistence": None, "climatology": None})
        return scores
    paired = rows[rows[f"forecast_level_{lead}"].notna()]
    days, persistence, climatology = references(paired, lead)
    observed = (days["observed_value"], days["observed_level"])
    scores["days"] = len(days)
    scores.update(reference_scores(days, lead, persistence, climatology))
    forecast = categorical(days[f"forecast_value_{lead}"], days[f"forecast_level_{lead}"], *observed)
    scores["forecast"] = with_differences(forecast, {"persistence": scores["persistence"], "climatology": scores["climatology"]})
    return scores


def own_forecasts(pairs, providers, reach):
    """Each row's forecast by its observed day's provider, at each lead: forecast_value_<lead>, forecast_level_<lead>."""
    for lead in range(reach):
        for what in ("value", "level"):
            column = pd.Series(pd.NA, index=pairs.index, dtype=object)
            for p in providers:
                name = f"forecast_{p}_{what}_{lead}"
                if name in pairs:
                    mine = pairs["provider"].str.lower().str.replace(r"[^a-z0-9]+", "_", regex=True) == p
                    column = column.where(~mine, pairs[name])
            made = pd.to_numeric(column) if what == "value" else column
            given = f"forecast_{what}_{lead}"
            if given in pairs:
                # The files' own columns of the observed day's provider say the same.
                same = (pairs[given].isna() & made.isna()) | (pairs[given].astype(object) == made.astype(object))
                assert same.all(), f"{given} differs from the observed day's provider's column on {int((~same).sum())} rows"
            pairs[given] = made
    return pairs


def main(window_end, paths):
    pairs = pd.concat(
        pd.read_csv(path, compression="gzip", parse_dates=["date"], keep_default_na=False, na_values=[""]) for path in paths
    ).reset_index(drop=True)
    # The providers and leads the files carry, in their columns' order.
    # (forecast_level_0 and its like are the observed day's own provider's, the files' first columns.)
    found = [c[len("forecast_") : -len("_level_0")] for c in pairs.columns if c.startswith("forecast_") and c.endswith("_level_0") and c != "forecast_level_0"]
    leads_of = {p: sum(1 for c in pairs.columns if c.startswith(f"forecast_{p}_level_")) for p in found}
    reach = max([3, *leads_of.values()])
    pairs = own_forecasts(pairs, found, reach)
    end = pd.Timestamp(window_end)
    start = end - pd.Timedelta(days=WINDOW_DAYS - 1)
    result = {}
    for (city, category), rows in pairs.groupby(["city", "category"], sort=False):
        rows = rows.sort_values("date")
        window = rows[(rows["date"] >= start) & (rows["date"] <= end)]
        years = list(rows.groupby("season_year"))
        for lead in range(max(OUTLOOK_LEADS, reach)):
            in_season = window[window[f"in_season_{lead}"].astype(str).str.lower() == "true"]
            periods = [("window", window), ("window_in_season", in_season)] + [(str(year), held) for year, held in years]
            for name, held in periods:
                result[f"{city}|{category}|{lead}|{name}"] = period_scores(held, lead, reach, found)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
