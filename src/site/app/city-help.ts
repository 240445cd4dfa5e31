/**
 * What the name box, the ZIP box and "Use my location" found, said in #locate-status (a status
 * region, so screen readers read it out), with the cities it offers as buttons: a near spelling,
 * or the nearest city however far.
 */
import { h } from './dom.js';

/** A city the status offers: the button's words and the city it opens. */
export interface Offer {
  label: string;
  slug: string;
}

export interface Saying {
  /** Said as a problem (in red): nothing was opened. */
  problem?: boolean;
  /** The cities offered, as buttons after the text. */
  offer?: readonly Offer[];
  /** The text after the buttons ("?" of "Did you mean …?"). */
  after?: string;
  /** Opens an offered city. */
  select?: (slug: string) => void;
}

let said = 0;

/** Writes the status; gives the number of this saying, which `stillSaid` checks before a late answer replaces it. */
export function say(text: string, { problem = false, offer = [], after = '', select }: Saying = {}): number {
  const status = document.querySelector<HTMLElement>('#locate-status')!;
  const buttons = offer.map(({ label, slug }) => {
    // A real button: in the tab order, Enter and Space press it, and it is at least 24 px square (style.css).
    const button = h('button', label, { type: 'button', 'data-city': slug });
    button.addEventListener('click', () => {
      say('');
      select?.(slug);
    });
    return button;
  });
  status.replaceChildren(text, ...interleave(buttons), after);
  status.classList.toggle('problem', problem);
  return ++said;
}

/** Whether saying `n` is the status still, so that an answer to it may replace it. */
export const stillSaid = (n: number): boolean => n === said;

/** Two buttons or more with "or" between them. */
function interleave(buttons: HTMLButtonElement[]): Array<HTMLButtonElement | string> {
  return buttons.flatMap((b, i) => (i === 0 ? [' ', b] : [i === buttons.length - 1 ? ' or ' : ', ', b]));
}

/** "Tulsa, OK": a city's name with its state, as the offers and the name box's suggestions write it. */
export function fullName(cities: readonly { slug: string; name: string; state: string }[], slug: string): string {
  const city = cities.find((c) => c.slug === slug);
  return city ? `${city.name}, ${city.state}` : slug;
}
