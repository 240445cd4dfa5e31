/**
 * From where someone is to a city. "Use my location" picks the nearest served city here in the
 * browser, from /api/cities, so the coordinates never leave the device; a ZIP code asks
 * /api/nearest, which holds the ZIP table. However far the nearest city is, it is offered.
 */
import { NEAR_KM, nearestCities } from '../../domain/geo.js';
import { fullName, say, stillSaid } from './city-help.js';
import { distance } from './units.js';

export interface ListedCity {
  name: string;
  slug: string;
  state: string;
  lat: number;
  lon: number;
  timezone: string;
}

/** What /api/nearest answers, found or not. */
interface NearestAnswer {
  cities?: Array<{ slug: string; distance_km: number }>;
  code?: string;
  nearest?: string;
  distance_km?: number;
}

/** The page's name of each city, by slug: its name, with its state where the name repeats (Columbus, Springfield). */
export function cityNames(cities: readonly ListedCity[]): Map<string, string> {
  const count = new Map<string, number>();
  for (const c of cities) count.set(c.name, (count.get(c.name) ?? 0) + 1);
  return new Map(cities.map((c) => [c.slug, count.get(c.name)! > 1 ? `${c.name}, ${c.state}` : c.name]));
}

/** The page's name of a city, as `cityNames` gives it. */
export function cityLabels(cities: readonly ListedCity[]): (slug: string) => string {
  const names = cityNames(cities);
  return (slug) => names.get(slug) ?? slug;
}

/** No city near `where`: says so, and offers the nearest, with its distance. */
function farFrom(
  cities: readonly ListedCity[],
  where: string,
  select: (slug: string) => void,
  nearest?: { slug: string; km: number },
): void {
  const text = `No city we serve is within ${distance(NEAR_KM)} of ${where}.`;
  if (!nearest) return void say(text, { problem: true });
  const label = `Open ${fullName(cities, nearest.slug)} (${distance(nearest.km)} away)`;
  say(`${text} The nearest we serve:`, { problem: true, offer: [{ label, slug: nearest.slug }], select });
}

/**
 * Looks up a typed ZIP code (five digits; ZIP+4 is cut to its five) with /api/nearest and opens
 * its nearest city, or says why not in #locate-status: the ZIP box's and the name box's way.
 */
export function lookUpZip(
  typed: string,
  cities: readonly ListedCity[],
  select: (slug: string) => void,
  label: (slug: string) => string = cityLabels(cities),
): void {
  const zip = /^(\d{5})(-\d{4})?$/.exec(typed.trim())?.[1];
  if (!zip) return void say('A ZIP code is five digits, such as 78701.', { problem: true });
  const asked = say(`Looking up ZIP code ${zip}…`);
  const answer = (text: string, problem = true) => stillSaid(asked) && say(text, { problem });
  void fetch(`/api/nearest?zip=${zip}`, { headers: { accept: 'application/json' } })
    .then(async (res) => {
      const body = (await res.json()) as NearestAnswer;
      if (!stillSaid(asked)) return; // something else was asked since
      const found = body.cities?.[0];
      if (res.ok && found) {
        select(found.slug);
        return void say(`ZIP code ${zip}: ${label(found.slug)}, ${distance(found.distance_km)} away.`);
      }
      if (body.code === 'NO_CITY_NEARBY')
        return farFrom(
          cities,
          `ZIP code ${zip}`,
          select,
          body.nearest === undefined || body.distance_km === undefined ? undefined : { slug: body.nearest, km: body.distance_km },
        );
      // The API's messages are for developers (they name data sets): the page says it in plain words.
      if (body.code === 'UNKNOWN_ZIP')
        return void answer(
          `We have no location for ZIP code ${zip}: it may be a post-office-box or single-business ZIP code, or a new one. Try the ZIP code of a street address nearby, or use your location.`,
        );
      answer(`ZIP code ${zip} could not be looked up right now. Try again in a while, or use your location.`);
    })
    .catch(() => answer(`ZIP code ${zip} could not be looked up: check your connection and try again.`));
}

/** Wires the location button and the ZIP form to `select`, saying what they found in #locate-status. */
export function setUpLocate(cities: readonly ListedCity[], label: (slug: string) => string, select: (slug: string) => void): void {
  document.querySelector<HTMLButtonElement>('#use-location')!.addEventListener('click', () => {
    if (!('geolocation' in navigator))
      return void say('This browser cannot share its location: enter a ZIP code instead.', { problem: true });
    const asked = say('Finding your location…');
    navigator.geolocation.getCurrentPosition(
      (position) => {
        if (!stillSaid(asked)) return;
        const { within, nearest } = nearestCities(cities, { lat: position.coords.latitude, lon: position.coords.longitude }, 1, NEAR_KM);
        const found = within[0];
        if (!found) return farFrom(cities, 'you', select, nearest && { slug: nearest.city.slug, km: nearest.distance_km });
        select(found.city.slug);
        say(`Nearest city: ${label(found.city.slug)}, ${distance(found.distance_km)} from you.`);
      },
      (error) =>
        stillSaid(asked) &&
        say(`Your location is not available (${error.message || 'not allowed'}): enter a ZIP code instead.`, { problem: true }),
      { maximumAge: 600_000, timeout: 15_000 },
    );
  });

  const input = document.querySelector<HTMLInputElement>('#zip')!;
  document.querySelector<HTMLFormElement>('#zip-form')!.addEventListener('submit', (event) => {
    event.preventDefault();
    lookUpZip(input.value, cities, select, label);
  });
}
