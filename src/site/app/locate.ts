/**
 * From where someone is to a city. "Use my location" picks the nearest served city here in the
 * browser, from /api/cities, so the coordinates never leave the device; a ZIP code asks
 * /api/nearest, which holds the ZIP table.
 */
import { NEAR_KM, nearestCities } from '../../domain/geo.js';
import { distance } from './units.js';

export interface ListedCity {
  name: string;
  slug: string;
  state: string;
  lat: number;
  lon: number;
  timezone: string;
}

const $ = <T extends Element>(selector: string) => document.querySelector(selector) as T;

/** Wires the location button and the ZIP form to `select`, saying what they found in #locate-status. */
export function setUpLocate(cities: readonly ListedCity[], label: (slug: string) => string, select: (slug: string) => void): void {
  const status = $<HTMLElement>('#locate-status');
  const say = (text: string, problem = false) => {
    status.textContent = text;
    status.classList.toggle('problem', problem);
  };
  const farFrom = (where: string, nearest?: { slug: string; distance_km: number }) =>
    say(
      `No city we serve is within ${distance(NEAR_KM)} of ${where}${nearest ? `: the nearest is ${label(nearest.slug)}, ${distance(nearest.distance_km)} away` : ''}.`,
      true,
    );

  $<HTMLButtonElement>('#use-location').addEventListener('click', () => {
    if (!('geolocation' in navigator)) return say('This browser cannot share its location: enter a ZIP code instead.', true);
    say('Finding your location…');
    navigator.geolocation.getCurrentPosition(
      (position) => {
        const { within, nearest } = nearestCities(cities, { lat: position.coords.latitude, lon: position.coords.longitude }, 1, NEAR_KM);
        const found = within[0];
        if (!found) return farFrom('you', nearest && { slug: nearest.city.slug, distance_km: nearest.distance_km });
        select(found.city.slug);
        say(`Nearest city: ${label(found.city.slug)}, ${distance(found.distance_km)} from you.`);
      },
      (error) => say(`Your location is not available (${error.message || 'not allowed'}): enter a ZIP code instead.`, true),
      { maximumAge: 600_000, timeout: 15_000 },
    );
  });

  const input = $<HTMLInputElement>('#zip');
  $<HTMLFormElement>('#zip-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const zip = input.value.trim();
    if (!/^\d{5}$/.test(zip)) return say('A ZIP code is five digits, such as 78701.', true);
    say(`Looking up ZIP code ${zip}…`);
    void fetch(`/api/nearest?zip=${zip}`, { headers: { accept: 'application/json' } })
      .then(async (res) => {
        const body = (await res.json()) as {
          cities?: Array<{ slug: string; distance_km: number }>;
          code?: string;
          nearest?: string;
          distance_km?: number;
        };
        const found = body.cities?.[0];
        if (res.ok && found) {
          select(found.slug);
          return say(`ZIP code ${zip}: ${label(found.slug)}, ${distance(found.distance_km)} away.`);
        }
        if (body.code === 'NO_CITY_NEARBY')
          return farFrom(
            `ZIP code ${zip}`,
            body.nearest === undefined ? undefined : { slug: body.nearest, distance_km: body.distance_km! },
          );
        // The API's messages are for developers (they name data sets): the page says it in plain words.
        if (body.code === 'UNKNOWN_ZIP')
          return say(
            `We have no location for ZIP code ${zip}: it may be a post-office-box or single-business ZIP code, or a new one. Try the ZIP code of a street address nearby, or use your location.`,
            true,
          );
        say(`ZIP code ${zip} could not be looked up right now. Try again in a while, or use your location.`, true);
      })
      .catch(() => say(`ZIP code ${zip} could not be looked up: check your connection and try again.`, true));
  });
}
