/**
 * A city by name, as one types it, and the city kept between visits: `/?city=austin` opens it
 * (a link to share or bookmark), and the last city opened is remembered in this browser, so a
 * person finds their city again without searching. A name that is no served city is answered with
 * the city it most likely meant, as a button; a ZIP code typed as the name is looked up as one.
 */
import { citiesTyped, likelyCity } from '../../domain/city-search.js';
import { fullName, say } from './city-help.js';
import { type ListedCity, lookUpZip } from './locate.js';

const KEPT = 'pollen-city';
const $ = <T extends Element>(selector: string) => document.querySelector(selector) as T;
const TRY = 'Try another spelling, a ZIP code or your location.';

/** The served cities a typed name stands for, best first ("aus", "Columbus, OH", "tulsa ok", "New York City"). */
export function citiesNamed(cities: readonly ListedCity[], typed: string): ListedCity[] {
  return citiesTyped(cities, typed);
}

const served = (cities: readonly ListedCity[], slug: string | null | undefined) =>
  slug && cities.some((c) => c.slug === slug) ? slug : undefined;

/** The city to open first: the one the address names, else the one this browser kept, if served. */
export function cityToOpen(cities: readonly ListedCity[]): string | undefined {
  return served(cities, new URLSearchParams(location.search).get('city')) ?? served(cities, kept());
}

/**
 * When the address names a city not served (`/?city=tusla`) or none (`/?city=`), says so in
 * #locate-status, offering the city it most likely meant as a button that opens it. Nothing is
 * said of an address without `city`, or with a served one.
 */
export function explainAddressCity(cities: readonly ListedCity[], select: (slug: string) => void): void {
  const asked = new URLSearchParams(location.search).get('city');
  if (asked === null || served(cities, asked)) return;
  const typed = asked.trim();
  if (typed === '') return void say('The link names no city. Type a city name or a ZIP code, or use your location.', { problem: true });
  noCity(cities, `No city we serve is called “${typed}”.`, citiesNamed(cities, typed)[0] ?? likelyCity(cities, typed), select);
}

/** Says that no city has the name asked for (`text`), offering the one it most likely meant, if any, as a button. */
function noCity(cities: readonly ListedCity[], text: string, meant: ListedCity | undefined, select: (slug: string) => void): void {
  if (!meant) return void say(`${text} ${TRY}`, { problem: true });
  say(`${text} Did you mean`, { problem: true, offer: [{ label: fullName(cities, meant.slug), slug: meant.slug }], after: '?', select });
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
 * types); choosing one, or submitting a name, opens the best match; a ZIP code is looked up as
 * the ZIP box does; a name that matches no city says so in #locate-status, with the likeliest;
 * and so does a city the address names that is not served (explainAddressCity).
 */
export function setUpCitySearch(cities: readonly ListedCity[], select: (slug: string) => void): void {
  const input = $<HTMLInputElement>('#city-search');
  const labels = new Map(cities.map((c) => [`${c.name}, ${c.state}`.toLowerCase(), c.slug]));
  $<HTMLDataListElement>('#city-names').replaceChildren(...cities.map((c) => new Option(`${c.name}, ${c.state}`)));
  explainAddressCity(cities, select);
  // Whether the box was emptied by opening a city: the Enter that picked the suggestion may submit it empty then.
  let opened = false;
  const open = (slug: string) => {
    say('');
    input.value = '';
    opened = true;
    select(slug);
  };
  // A suggestion picked from the list is the whole label: open it at once.
  input.addEventListener('input', () => {
    opened = false;
    const slug = labels.get(input.value.trim().toLowerCase());
    if (slug) open(slug);
  });
  $<HTMLFormElement>('#city-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const typed = input.value.trim();
    if (typed === '') return void (opened || say('Type a city name or a ZIP code.'));
    if (/^[\d\s-]+$/.test(typed)) return lookUpZip(typed.replace(/\s/g, ''), cities, select);
    const found = citiesNamed(cities, typed)[0];
    if (found) return open(found.slug);
    noCity(cities, `No city we serve is named “${typed}”.`, likelyCity(cities, typed), select);
  });
}
