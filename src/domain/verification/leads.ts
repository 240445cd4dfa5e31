/**
 * The furthest lead a provider's kept forecast is scored at, plus one: a daily provider's 14 dates
 * (lead 13); a 48-hour forecast reaches the second day after its issue day (lead 2).
 */
export const PROVIDER_LEADS = 14;

/**
 * The leads every city is scored at, whatever its kept forecasts reach: a 48-hour forecast's (to
 * lead 2), so that a store whose forecasts fall short says at each of them on how few days.
 */
export const MIN_LEADS = 3;
