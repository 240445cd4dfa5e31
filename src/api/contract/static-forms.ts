/**
 * The static forms of answers: which query parameters a form has, the file under the publish
 * folder it is rendered to, and which parameter sets to render. The renderer renders unit by unit
 * (each city, each date, and the files made once), asking each form for its parameter sets within
 * a unit; `_redirects` is generated from the forms, and the fallback function maps a file path
 * back to its request with them.
 */
import { dayString } from '../../domain/dates.js';
import type { StoreReader } from '../../store/reader.js';

/** The parameters of one static answer, by name. */
export type FormParams = Record<string, string>;

/**
 * A piece of a render: the files made once, or those of one city, or of one UTC day (with
 * whether the store has pollen and weather on it, and whether the day's city-day files fit the
 * deploy's file budget). Units are independent of each other, so workers render them side by side.
 */
export type Unit =
  | { kind: 'once' }
  | { kind: 'city'; city: string }
  | { kind: 'date'; day: number; pollen: boolean; weather: boolean; cityDays: boolean };

export interface StaticForm {
  /** The file under the publish folder, with `{name}` for each parameter. */
  file: string;
  /** Parameters with one value in every request of the form (`timezone=local`). */
  fixed?: FormParams;
  /** The kind of unit whose render writes this form's files. */
  unit: Unit['kind'];
  /** The parameter sets to render in this form within a unit of its kind. */
  enumerate: (store: StoreReader, unit: Unit) => Iterable<FormParams>;
  /**
   * A file per city-day: rendered only for the newest days that fit the deploy's file budget
   * (`unit.cityDays`); the fallback function answers the others from the same handler.
   */
  perCityDay?: true;
}

/** Where rendered API answers live under the publish folder; the fallback function serves its misses. */
export const DATA_PREFIX = 'data';

/** The local-day forms' fixed parameter. */
export const LOCAL: FormParams = { timezone: 'local' };

/** Rendered once. */
export const once = (): FormParams[] => [{}];
/**
 * Rendered only when the store has data: an empty store's latest date is the fallback's 404.
 * (The parameterless forms of routes that take parameters are not rendered at all: see
 * netlify.toml, they reach the fallback function whatever their query.)
 */
export const ifData = (store: StoreReader): FormParams[] => (store.pollen.latestDay() === null ? [] : [{}]);
/** The city of a city unit. */
export const theCity = (_: StoreReader, u: Unit): FormParams[] => (u.kind === 'city' ? [{ city: u.city }] : []);
/** The date of a date unit with pollen data. */
export const ifPollen = (_: StoreReader, u: Unit): FormParams[] => (u.kind === 'date' && u.pollen ? [{ date: dayString(u.day) }] : []);
/** The date of a date unit with weather data. */
export const ifWeather = (_: StoreReader, u: Unit): FormParams[] => (u.kind === 'date' && u.weather ? [{ date: dayString(u.day) }] : []);
/** Each city with data on the day; other city-days answer empty rows from the fallback function. */
export const citiesOn =
  (kind: 'pollen' | 'weather') =>
  (store: StoreReader, u: Unit): FormParams[] =>
    u.kind !== 'date'
      ? []
      : (kind === 'pollen' ? store.pollen.citiesWithDataOn(u.day) : store.weather.citiesOn(u.day)).map((city) => ({
          city,
          date: dayString(u.day),
        }));

/** The parameter names of a form, in the order they appear in its file. */
export function formParams(form: StaticForm): string[] {
  return [...form.file.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/** The file of a form for a parameter set. */
export function fileFor(form: StaticForm, params: FormParams): string {
  return form.file.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!);
}
