/**
 * What a name (of a person, a company, a station, a unit, a zone) may not hold: control
 * characters (U+0000-U+001F, U+007F-U+009F) and the bidirectional embeddings, overrides and
 * isolates (U+202A-U+202E, U+2066-U+2069), which make a name read differently from what it
 * is in lists, files and messages. Names that hold one are refused, not cleaned.
 */

/** `\p{Cc}`: U+0000-U+001F and U+007F-U+009F. */
const FORBIDDEN = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/** The locale key of the refusal. */
export const NAME_CONTROL_KEY = "validation.name_control";

/** True when `name` holds no control or bidirectional-override character. */
export function isCleanName(name: string): boolean {
  return !FORBIDDEN.test(name);
}
