/**
 * The panel's first lines, "how bad is it today and tomorrow": each day's highest level in words
 * and colour (as the map's markers show a day), and each category's. From the forecast's local
 * days (/api/forecast?aggregate=day&timezone=local); when there is no forecast, from the latest
 * observed days, said as such.
 */
import type { DayRow, ForecastDay, Risk } from './api.js';
import { h } from './dom.js';
import { badge, worst } from './risk.js';

/** A day's highest hourly level in each category, as the daily and forecast rows give it. */
type Levels = Pick<ForecastDay, 'date' | 'peak_risk_tree' | 'peak_risk_grass' | 'peak_risk_weed'>;

const dayName = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', month: 'short', day: 'numeric', timeZone: 'UTC' });

const words = (risk: Risk) => (risk === null ? 'no data' : risk);

/** One day: its name, its highest level as a badge, and each category's in words. */
function dayLine(when: string, d: Levels, note?: string): HTMLLIElement {
  const li = h('li', undefined, { class: 'day-level' });
  const level = worst(d.peak_risk_tree, d.peak_risk_grass, d.peak_risk_weed);
  li.append(
    h('strong', `${when}, ${dayName(d.date)}: `),
    badge(level),
    ` tree ${words(d.peak_risk_tree)}, grass ${words(d.peak_risk_grass)}, weed ${words(d.peak_risk_weed)}`,
    ...(note ? [h('span', ` (${note})`, { class: 'fine' })] : []),
  );
  return li;
}

/**
 * Today and tomorrow from the forecast's first two local days (today's is its hours still to come);
 * without a forecast, the latest two observed days (`observed` newest first).
 */
export function todaySection(forecast: readonly ForecastDay[] | undefined, observed: readonly DayRow[]): HTMLElement {
  const section = h('section', undefined, { class: 'today', 'aria-labelledby': 'today-title' });
  const list = h('ul', undefined, { class: 'day-levels' });
  if (forecast && forecast.length > 0) {
    section.append(h('h3', 'Today and tomorrow', { id: 'today-title' }));
    const [today, tomorrow] = forecast;
    list.append(dayLine('Today', today!, `forecast, the ${today!.hours} hours still to come`));
    if (tomorrow) list.append(dayLine('Tomorrow', tomorrow, 'forecast'));
    section.append(
      list,
      h('p', "Each day's highest hourly level, as on the map: the worst category first, then each one.", { class: 'fine' }),
    );
    return section;
  }
  section.append(h('h3', 'Latest days observed', { id: 'today-title' }));
  if (observed.length === 0) {
    section.append(h('p', 'No forecast and no observed days for this city yet.'));
    return section;
  }
  for (const d of observed.slice(0, 2)) list.append(dayLine(d === observed[0] ? 'Latest' : 'Before', d));
  section.append(
    list,
    h('p', "There is no forecast right now, so these are the latest days observed: each day's highest hourly level.", {
      class: 'notice',
      role: 'note',
    }),
  );
  return section;
}
