/** Lists in words, as the API's descriptions, alert summaries and the page write them. */

/** `a`, `a and b`, `a, b and c`. */
export const listed = (words: readonly string[]): string =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

/** A text with its first letter in capitals: a sentence's start, a heading, a provider's id as a name (`atmospore`, Atmospore). */
export const capitalized = (text: string): string => (text === '' ? text : `${text[0]!.toUpperCase()}${text.slice(1)}`);
