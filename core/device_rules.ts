/**
 * Rules of stations and sensors (spec 000 sections 4, 5 and 9): the request bodies with the
 * spec's validation messages (locale keys under `devices.`), the SSR and unit rules, the
 * location JSON string, and the effective station status. Pure: no I/O, no clock.
 *
 * Field errors are keyed by form field, flat: `name`, `serial_number`, `station_id`,
 * `zone_id`, `location`, `city`, `state`, `country`, `ssrs`, `units`, `mqtt_username`,
 * `mqtt_password`, `unit_id`, `tenant_id`, `ip_address` (`_` for the whole body). Messages
 * with a parameter (`Maximum {{max}} SSRs allowed`) take {@link DEVICE_MESSAGE_PARAMS}.
 */
import { z } from "zod";
import {
  type DeviceStatus,
  MAX_GPIO_PIN,
  MAX_SSRS,
  MIN_SSRS,
  type SSR,
  type StationUnit,
} from "./devices.ts";
import type { FieldErrors } from "./schemas.ts";
import { MQTT_PASSWORD_MAX_LENGTH, MQTT_PASSWORD_MIN_LENGTH } from "./mqtt_passwords.ts";

const ST = "devices.station_form.validation.";
const SE = "devices.sensor_form.validation.";
const DV = "devices.validation.";

export {
  GENERATED_MQTT_PASSWORD_LENGTH,
  MQTT_PASSWORD_ALPHABET,
  MQTT_PASSWORD_MAX_LENGTH,
  MQTT_PASSWORD_MIN_LENGTH,
  mqttPasswordFromBytes,
} from "./mqtt_passwords.ts";
import { isCleanName, NAME_CONTROL_KEY } from "./name_text.ts";

/**
 * Parameters every device message is translated with (`{{max}}` SSRs, `{{pin}}`, the
 * shortest MQTT password `{{min}}`).
 */
export const DEVICE_MESSAGE_PARAMS = {
  max: MAX_SSRS,
  pin: MAX_GPIO_PIN,
  min: MQTT_PASSWORD_MIN_LENGTH,
} as const;

export {
  LOCATION_FIELDS,
  locationJson,
  parseLocation,
  type StationLocation,
} from "./station_location.ts";
import { parseLocation } from "./station_location.ts";

// ---- status --------------------------------------------------------------------------------

/**
 * A station's effective status (spec 000 section 4) from its own status and its sensors':
 * no sensors gives its own; own online and every sensor online gives online; any sensor
 * offline gives error; own offline and every sensor online gives alarm; otherwise its own.
 */
export function effectiveStationStatus(
  own: DeviceStatus,
  sensors: readonly DeviceStatus[],
): DeviceStatus {
  if (sensors.length === 0) return own;
  const allOnline = sensors.every((s) => s === "online");
  if (allOnline && own === "online") return "online";
  if (sensors.some((s) => s === "offline")) return "error";
  if (allOnline && own === "offline") return "alarm";
  return own;
}

// ---- SSRs and units ----------------------------------------------------------------------

/** SSR ids are `ssr_N`, unit ids `unit_N` (the access-code selection `sensorId:unit_N`). */
const SSR_ID = /^ssr_\d{1,3}$/;
/** A unit id. */
const UNIT_ID = /^unit_\d{1,3}$/;

/** The number in an id `prefix_N`. */
function suffix(id: string): string {
  return id.slice(id.indexOf("_") + 1);
}

/**
 * The problems of a station's SSRs and units, as locale keys by field: 1 to 12 SSRs, unique
 * ids, unique GPIO pins from 0 to 19, units with unique ids on existing SSRs.
 */
export function ssrUnitProblems(
  ssrs: readonly SSR[],
  units: readonly Pick<StationUnit, "id" | "ssr_id">[],
): FieldErrors {
  const out: FieldErrors = {};
  if (ssrs.length < MIN_SSRS) out.ssrs = `${ST}ssr_count_range`;
  else if (ssrs.length > MAX_SSRS) out.ssrs = `${ST}max_ssrs`;
  else if (ssrs.some((s) => s.gpio_pin > MAX_GPIO_PIN)) out.ssrs = `${ST}max_gpio`;
  else if (new Set(ssrs.map((s) => s.id)).size !== ssrs.length) out.ssrs = `${DV}ssr_duplicate`;
  else if (new Set(ssrs.map((s) => s.gpio_pin)).size !== ssrs.length) {
    out.ssrs = `${DV}gpio_duplicate`;
  }
  const ids = new Set(ssrs.map((s) => s.id));
  if (units.some((u) => !ids.has(u.ssr_id))) out.units = `${ST}units_existing_ssrs`;
  else if (new Set(units.map((u) => u.id)).size !== units.length) {
    out.units = `${DV}unit_duplicate`;
  }
  return out;
}

// ---- bodies --------------------------------------------------------------------------------

/** Either create (passwords required) or update (blank password keeps the current one). */
type BodyMode = "create" | "update";

/** A name before trimming: none, or one without control or text-direction characters. */
const cleanName = (v: string | null | undefined) => v == null || isCleanName(v);

/**
 * A required trimmed string with `required` as its message; a `name` holding control or
 * text-direction characters is refused before it is trimmed.
 */
const requiredText = (required: string, max: number, name = false) =>
  z.union([z.string(), z.null()], { error: required }).optional()
    .refine((v) => !name || cleanName(v), NAME_CONTROL_KEY)
    .transform((v) => (v ?? "").trim())
    .pipe(z.string().min(1, required).max(max, "validation.too_long"));

/** An optional trimmed string ("" when missing); a `name` is refused as `requiredText` says. */
const optionalText = (max: number, name = false) =>
  z.union([z.string(), z.null()], { error: "validation.invalid" }).optional()
    .refine((v) => !name || cleanName(v), NAME_CONTROL_KEY)
    .transform((v) => (v ?? "").trim())
    .pipe(z.string().max(max, "validation.too_long"));

/** Serial numbers go into MQTT topics: no slashes, wildcards or spaces. */
const SERIAL = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

const serialField = (required: string) =>
  requiredText(required, 64).pipe(z.string().regex(SERIAL, `${DV}serial_invalid`));

/**
 * `config.mqtt` of a station (`form` = `ST`) or sensor (`SE`): username required; the
 * password required on create, and on update blank (or missing) keeps the current one; a
 * password given is at least {@link MQTT_PASSWORD_MIN_LENGTH} characters.
 */
const mqttField = (mode: BodyMode, form: string) =>
  objectOrEmpty({
    username: requiredText(`${form}mqtt_username_required`, 64)
      .pipe(z.string().regex(/^[^\s/+#]+$/, `${DV}mqtt_username_invalid`)),
    password: z.union([z.string(), z.null()], { error: "validation.invalid" }).optional()
      .transform((v) => v ?? "")
      .pipe(
        z.string()
          .max(MQTT_PASSWORD_MAX_LENGTH, "validation.too_long")
          .refine((v) => mode === "update" || v !== "", `${form}mqtt_password_required`)
          .refine(
            (v) => v === "" || v.length >= MQTT_PASSWORD_MIN_LENGTH,
            `${DV}mqtt_password_too_short`,
          ),
      ),
  });

/** An object field that may be missing (then its own fields report what is missing). */
function objectOrEmpty<T extends z.ZodRawShape>(shape: T) {
  return z.preprocess(
    (v) => (v === undefined || v === null ? {} : v),
    z.object(shape, { error: "validation.invalid" }),
  );
}

/** A positive integer id, or null (missing, null or ""). */
const optionalId = (message: string) =>
  z.union([z.number(), z.string(), z.null()], { error: message }).optional()
    .transform((v, ctx) => {
      if (v === null || v === undefined || v === "") return null;
      const n = typeof v === "number" ? v : /^\d{1,15}$/.test(v.trim()) ? Number(v) : NaN;
      if (!Number.isSafeInteger(n) || n <= 0) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return n;
    });

const gpioPin = z.union([z.number(), z.string().regex(/^\d{1,3}$/).transform(Number)], {
  error: "validation.invalid",
}).pipe(
  z.number().int("validation.invalid").min(0, "validation.invalid").max(
    MAX_GPIO_PIN,
    `${ST}max_gpio`,
  ),
);

const ssrSchema = z.object({
  id: z.string({ error: "validation.invalid" }).regex(SSR_ID, "validation.invalid"),
  name: optionalText(60, true),
  type: z.enum(["normal", "emergency"], { error: "validation.invalid" }).default("normal"),
  gpio_pin: gpioPin,
}, { error: "validation.invalid" }).transform((s): SSR => ({
  id: s.id,
  name: s.name || `SSR ${suffix(s.id)}`,
  type: s.type,
  gpio_pin: s.gpio_pin,
}));

const unitSchema = z.object({
  id: z.string({ error: "validation.invalid" }).regex(UNIT_ID, "validation.invalid"),
  name: optionalText(60, true),
  ssr_id: z.string({ error: `${ST}units_existing_ssrs` }),
}, { error: "validation.invalid" }).transform((u) => ({
  id: u.id,
  name: u.name || `Unit ${suffix(u.id)}`,
  ssr_id: u.ssr_id,
}));

/** The body of POST /api/devices (create) and PUT /api/devices/{id} (update). */
export function stationBodySchema(mode: BodyMode) {
  const location = z.union([z.string(), z.record(z.string(), z.unknown()), z.null()], {
    error: "validation.invalid",
  }).optional()
    .transform((v) => parseLocation(v))
    .pipe(z.object({
      street: z.string().max(160, "validation.too_long"),
      street_number: z.string().max(40, "validation.too_long"),
      colony: z.string().max(120, "validation.too_long"),
      postal_code: z.string().max(20, "validation.too_long"),
      city: z.string().min(1, `${ST}city_required`).max(120, "validation.too_long"),
      state: z.string().min(1, `${ST}state_required`).max(120, "validation.too_long"),
      country: z.string().min(1, `${ST}country_required`).max(120, "validation.too_long"),
      indications: z.string().max(500, "validation.too_long"),
    }));
  const station = objectOrEmpty({
    ssrs: z.array(ssrSchema, { error: `${ST}ssr_count_range` }).max(100, `${ST}max_ssrs`)
      .default([]),
    units: z.array(unitSchema, { error: "validation.invalid" }).max(500, "validation.too_long")
      .default([]),
  }).superRefine((v, ctx) => {
    for (const [field, message] of Object.entries(ssrUnitProblems(v.ssrs, v.units))) {
      ctx.addIssue({ code: "custom", path: [field], message });
    }
  });
  return z.object({
    name: requiredText(`${ST}name_required`, 120, true),
    location,
    serial_number: serialField(`${ST}serial_required`),
    station_id: requiredText(`${ST}station_id_required`, 64),
    zone_id: optionalId(`${DV}zone_invalid`),
    type: z.literal("station", { error: "validation.invalid" }).optional(),
    config: objectOrEmpty({ mqtt: mqttField(mode, ST), station }),
  }, { error: "validation.invalid" });
}

/** A validated station body. */
export type StationInput = z.output<ReturnType<typeof stationBodySchema>>;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9A-Fa-f:.]+$/;

/** True for an IPv4 address or a plausible IPv6 address. */
export function isIpAddress(s: string): boolean {
  return IPV4.test(s) || (s.includes(":") && s.length <= 45 && IPV6.test(s));
}

/** The body of POST and PUT /api/devices/{stationId}/sensors[/{sensorId}]. */
export function sensorBodySchema(mode: BodyMode) {
  const sensor = objectOrEmpty({
    unit_id: requiredText(`${SE}unit_required`, 16)
      .pipe(z.string().regex(UNIT_ID, "devices.sensor_form.errors.unit_not_found")),
    tenant_id: optionalId(`${DV}tenant_invalid`),
    ip_address: requiredText(`${SE}ip_required`, 45)
      .pipe(z.string().refine(isIpAddress, `${DV}ip_invalid`)),
    /** On the station's main feed: the building's meter, read for its CFE bill, not billed. */
    master: z.boolean({ error: "validation.invalid" }).default(false),
  });
  return z.object({
    name: requiredText(`${SE}name_required`, 120, true),
    serial_number: serialField(`${SE}serial_required`),
    type: z.literal("sensor", { error: "validation.invalid" }).optional(),
    config: objectOrEmpty({ mqtt: mqttField(mode, SE), sensor }),
  }, { error: "validation.invalid" });
}

/** A validated sensor body. */
export type SensorInput = z.output<ReturnType<typeof sensorBodySchema>>;

/** POST /api/devices/assign-customer */
export const assignCustomerSchema = z.object({
  customer_id: optionalId(`${DV}customer_invalid`).pipe(
    z.number({ error: `${DV}customer_invalid` }),
  ),
  station_ids: z.array(z.coerce.number().int().positive(), { error: `${DV}stations_invalid` })
    .max(500, "validation.too_long"),
}, { error: "validation.invalid" });

/** A tenant's handover (issue 24): when, and the meter's reading then. */
const handoverFields = {
  effective_from: z.string({ error: "devices.tenancy.errors.effective_from" }).max(40)
    .nullish(),
  reading_kwh: z.number({ error: "devices.tenancy.errors.reading" }).nonnegative(
    "devices.tenancy.errors.reading",
  ).max(1e9, "devices.tenancy.errors.reading").nullish(),
};

/** POST /api/devices/assign-tenant (with an optional handover date and reading) */
export const assignTenantSchema = z.object({
  tenant_id: optionalId(`${DV}tenant_invalid`).pipe(z.number({ error: `${DV}tenant_invalid` })),
  sensor_ids: z.array(z.coerce.number().int().positive(), { error: `${DV}sensors_invalid` })
    .max(500, "validation.too_long"),
  ...handoverFields,
}, { error: "validation.invalid" });

/** POST /api/devices/remove-tenant/{id}: an optional body, the move-out and its final bill. */
export const removeTenantSchema = z.object({
  ...handoverFields,
  final_bill: z.boolean({ error: "validation.invalid" }).optional(),
}, { error: "validation.invalid" });

/** POST /api/devices/statuses: ids (numbers) or serial numbers (strings), at most 500. */
export const statusesSchema = z.object({
  deviceIds: z.array(
    z.union([
      z.number().int().positive(),
      z.string().trim().min(1).max(64),
    ], { error: `${DV}device_ids_invalid` }),
    { error: `${DV}device_ids_invalid` },
  ).max(500, "validation.too_long"),
}, { error: "validation.invalid" });

/** GET /api/devices query. */
export const devicesQuerySchema = z.object({
  type: z.enum(["station", "sensor"], { error: "validation.invalid" }).optional(),
  customer_id: optionalId(`${DV}customer_invalid`),
  tenant_id: optionalId(`${DV}tenant_invalid`),
});

/** The form field a zod issue path belongs to (see the module comment). */
export function deviceField(path: readonly PropertyKey[]): string {
  const [a, b, c] = path.map(String);
  if (a === undefined) return "_";
  if (a === "location") return b ?? "location";
  if (a !== "config") return a;
  if (b === "mqtt") return c ? `mqtt_${c}` : "mqtt_username";
  if ((b === "station" || b === "sensor") && c) return c;
  if (b === "station") return "ssrs";
  if (b === "sensor") return "unit_id";
  return "config";
}

/** Turns zod issues into flat field errors (first message per field). */
function deviceFieldErrors(
  issues: readonly { path: PropertyKey[]; message: string }[],
): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = deviceField(issue.path);
    if (key in out) continue;
    const m = issue.message;
    out[key] = m.startsWith("validation.") || m.startsWith("devices.") ? m : "validation.invalid";
  }
  return out;
}

/** Validates `data` with a device schema; errors are flat field errors of locale keys. */
export function validateDeviceBody<S extends z.ZodType>(
  schema: S,
  data: unknown,
): { ok: true; data: z.output<S> } | { ok: false; errors: FieldErrors } {
  const res = schema.safeParse(data);
  if (res.success) return { ok: true, data: res.data };
  return { ok: false, errors: deviceFieldErrors(res.error.issues) };
}
