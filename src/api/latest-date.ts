/** GET /api/latest-date */
import { dayString } from '../domain/dates.js';
import { noData } from './error.js';
import type { Handler } from './handler.js';

export const latestDate: Handler = (_query, { store }) => {
  const day = store.pollen.latestDay();
  if (day === null) throw noData();
  return { body: { date: dayString(day) } };
};
