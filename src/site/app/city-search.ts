/**
 * A city by name, as one types it, and the city kept between visits: `/?city=austin` opens it
 * (a link to share or bookmark), and the last city opened is remembered in this browser, so a
 * person finds their city again without searching.
 */
import { citiesByName, NameQueryError, parseNameQuery } from '../../domain/city-search.js';
import type { ListedCity } from './locate.js';

const KEPT = 'pollen-city';
const $ = <T extends Element>(selector: string) => document.querySelector(selector) as T;

/** The served cities a typed name stands for, best first ("aus", "Columbus, OH", "st louis"). */
export function citiesNamed(cities: readonly ListedCity[], typed: string): ListedCity[] {
  try {
    return citiesByName(cities, parseNameQuery(typed));
  } catch (error) {
    if (error instanceof NameQueryError) return [];
    throw error;
  }
}

/** The city to open first: the one the address names, else the one this browser kept, if served. */
export function cityToOpen(cities: readonly ListedCity[]): string | undefined {
  const served = (slug: string | null | undefined) => (slug && cities.some((c) => c.slug === slug) ? slug : undefined);
  return served(new URLSearchParams(location.search).get('city')) ?? served(kept());
}

/** The address names the city opened, and this browser keeps it for the next visit. */
export function keepCity(slug: string): void {
  const address = new URL(location.href);
  address.searchParams.set('city', slug);
  history.replaceState(null, '', address);
  try {
    localStorage.setItem(KEPT, slug);
  } catch {
    // Storage refused (a private window): the address still names the city.
  }
}

function kept(): string | null {
  try {
    return localStorage.getItem(KEPT);
  } catch {
    return null;
  }
}

/**
 * Wires the name box: its suggestions are every served city (the browser filters them as one
 * types); choosing one, or submitting a name, opens the best match, and a name that matches no
 * city says so in #locate-status.
 */
export function setUpCitySearch(cities: readonly ListedCity[], select: (slug: string) => void): void {
  const input = $<HTMLInputElement>('#city-search');
  const status = $<HTMLElement>('#locate-status');
  const labels = new Map(cities.map((c) => [`${c.name}, ${c.state}`.toLowerCase(), c.slug]));
  $<HTMLDataListElement>('#city-names').replaceChildren(...cities.map((c) => new Option(`${c.name}, ${c.state}`)));
  const open = (slug: string) => {
    status.textContent = '';
    status.classList.remove('problem');
    input.value = '';
    select(slug);
  };
  // A suggestion picked from the list is the whole label: open it at once.
  input.addEventListener('input', () => {
    const slug = labels.get(input.value.trim().toLowerCase());
    if (slug) open(slug);
  });
  $<HTMLFormElement>('#city-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const typed = input.value.trim();
    const found = citiesNamed(cities, typed)[0];
    if (found) return open(found.slug);
    status.textContent = `No city we serve is named “${typed}”. Try another spelling, a ZIP code or your location.`;
    status.classList.add('problem');
  });
}
