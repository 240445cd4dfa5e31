/** GET /api/available-dates */
import { dayString } from '../domain/dates.js';
import type { Handler } from './handler.js';

export const availableDates: Handler = (_query, { store }) => ({ body: { dates: store.pollen.daysWithData().map(dayString) } });
