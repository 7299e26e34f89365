/**
 * A station's location (spec 000 section 3): its fields in the form's order, read from a stored
 * or submitted JSON string (or plain text, the city), and written back as that string. Pure.
 */
/** The fields of a station's location, in the order the form shows them. */
export const LOCATION_FIELDS = [
  "street",
  "street_number",
  "colony",
  "postal_code",
  "city",
  "state",
  "country",
  "indications",
] as const;

/** A station's physical address; every field a (possibly empty) string. */
export type StationLocation = Record<typeof LOCATION_FIELDS[number], string>;

/** A location with every field empty. */
function emptyLocation(): StationLocation {
  return Object.fromEntries(LOCATION_FIELDS.map((k) => [k, ""])) as StationLocation;
}

/**
 * Reads a stored or submitted location: a JSON object string (or an object), or plain text,
 * which is taken as the city (spec 000 section 3). Unknown keys are dropped, values trimmed;
 * numbers (a postal code) become strings.
 */
export function parseLocation(raw: unknown): StationLocation {
  const out = emptyLocation();
  let value = raw;
  if (typeof raw === "string") {
    const text = raw.trim();
    if (text === "") return out;
    if (!text.startsWith("{")) return { ...out, city: text };
    try {
      value = JSON.parse(text);
    } catch {
      return { ...out, city: text };
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return out;
  const obj = value as Record<string, unknown>;
  for (const k of LOCATION_FIELDS) {
    const v = obj[k];
    if (typeof v === "string") out[k] = v.trim();
    else if (typeof v === "number" && Number.isFinite(v)) out[k] = String(v);
  }
  return out;
}

/** The location as the JSON string stored and served (every field, in order). */
export function locationJson(loc: StationLocation): string {
  return JSON.stringify(Object.fromEntries(LOCATION_FIELDS.map((k) => [k, loc[k]])));
}
