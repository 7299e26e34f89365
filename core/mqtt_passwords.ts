/** MQTT passwords of devices: the lengths an admin may choose and how the portal draws one. Pure. */

/**
 * The shortest MQTT password an admin may choose for a device. A device password guards a
 * broker account that publishes billing data and is tried over the network, so a short one
 * is refused (`devices.validation.mqtt_password_too_short`).
 */
export const MQTT_PASSWORD_MIN_LENGTH = 12;
/** The longest MQTT password accepted (a broker keeps it in a CONNECT packet). */
export const MQTT_PASSWORD_MAX_LENGTH = 128;
/** The length of an MQTT password the portal draws itself (cryptographically random). */
export const GENERATED_MQTT_PASSWORD_LENGTH = 20;
/**
 * Characters of a drawn MQTT password: letters and digits without look-alikes (0/O, 1/l/I),
 * so that a password read off a screen and typed into a device's web page comes out right.
 * 56 characters give about 5.8 bits each, 116 bits for 20.
 */
export const MQTT_PASSWORD_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/**
 * An MQTT password from random bytes, one character per byte. Bytes at or above the largest
 * multiple of the alphabet's size are skipped so that every character is equally likely;
 * throws a RangeError when too few bytes are left (draw twice as many as `length`).
 */
export function mqttPasswordFromBytes(
  bytes: Uint8Array,
  length = GENERATED_MQTT_PASSWORD_LENGTH,
): string {
  const n = MQTT_PASSWORD_ALPHABET.length;
  const limit = 256 - (256 % n);
  let out = "";
  for (const b of bytes) {
    if (out.length === length) break;
    if (b < limit) out += MQTT_PASSWORD_ALPHABET[b % n];
  }
  if (out.length < length) {
    throw new RangeError(`${bytes.length} random bytes gave ${out.length} of ${length} characters`);
  }
  return out;
}
