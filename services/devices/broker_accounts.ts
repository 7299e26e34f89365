/**
 * Devices' MQTT passwords (hashed for the device login, sealed for provisioning) and their
 * accounts on the broker (MQTT_DYNSEC=on): bringing the broker along after a change and
 * removing an account before a delete.
 */
import { auditStamp } from "../audit.ts";
import type { Deps } from "../deps.ts";
import { GENERATED_MQTT_PASSWORD_LENGTH, mqttPasswordFromBytes } from "../../core/device_rules.ts";
import {
  createDevice,
  deleteDevice,
  type StageAlso,
  updateDevice,
  type WriteRefusal,
  type WriteResult,
} from "../../db/devices.ts";
import { type StoredDevice } from "../../core/devices.ts";
import {
  hashMqttPassword,
  openMqttPassword,
  sealMqttPassword,
} from "../platform/mqtt_passwords.ts";
import {
  dynsecEnabled,
  provisionDevice,
  PROVISIONING_KEYS,
  provisioningKey,
  unprovisionDevice,
} from "./provisioning.ts";
import { brokerFailure } from "./_changes.ts";

/**
 * A new device MQTT password drawn from the system's cryptographic random source,
 * {@link GENERATED_MQTT_PASSWORD_LENGTH} characters (the rule and alphabet are in
 * `core/device_rules.ts`).
 */
export function generateMqttPassword(length = GENERATED_MQTT_PASSWORD_LENGTH): string {
  // Twice the length in bytes leaves room for the bytes the alphabet's rejection skips; a
  // short draw (about one in 10^12 for 20 characters) simply draws again.
  for (;;) {
    try {
      return mqttPasswordFromBytes(crypto.getRandomValues(new Uint8Array(length * 2)), length);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
    }
  }
}

/** The stored forms of an MQTT password: its hash (device login) and its sealed copy. */
export type PasswordFields = Pick<StoredDevice, "mqtt_password_hash" | "mqtt_password_sealed">;

/** The stored forms of a new password, or null when it is blank (the current one stays). */
async function passwordFields(
  deps: Deps,
  password: string | undefined,
): Promise<PasswordFields | null> {
  if (!password) return null;
  return {
    mqtt_password_hash: await hashMqttPassword(password),
    mqtt_password_sealed: await sealMqttPassword(deps.secret, password),
  };
}

/** The password fields of a stored device (a device from before sealing has the hash only). */
function storedPassword(d: StoredDevice): PasswordFields {
  return d.mqtt_password_sealed === undefined
    ? { mqtt_password_hash: d.mqtt_password_hash }
    : { mqtt_password_hash: d.mqtt_password_hash, mqtt_password_sealed: d.mqtt_password_sealed };
}

/** The MQTT password of a device in clear, or null when it was set before it was kept sealed. */
export function deviceMqttPassword(deps: Deps, d: StoredDevice): Promise<string | null> {
  return d.mqtt_password_sealed
    ? openMqttPassword(deps.secret, d.mqtt_password_sealed)
    : Promise.resolve(null);
}

/** Whether the broker's account of a device must change from `prev` to `next`. */
const accountChanged = (prev: StoredDevice, next: StoredDevice) =>
  prev.config.mqtt.username !== next.config.mqtt.username ||
  prev.config.mqtt.topic_prefix !== next.config.mqtt.topic_prefix ||
  prev.mqtt_password_hash !== next.mqtt_password_hash;

/** Tells the broker the device's account as stored; answers a locale key on failure. */
export async function provisionStored(
  deps: Deps,
  d: StoredDevice,
  formerUsername: string | null,
): Promise<string | null> {
  const password = await deviceMqttPassword(deps, d);
  if (password === null) return PROVISIONING_KEYS.password_missing;
  try {
    await provisionDevice(deps, {
      id: d.id,
      username: d.config.mqtt.username,
      password,
      prefix: d.config.mqtt.topic_prefix.replace(/\/+$/, ""),
    }, formerUsername);
    return null;
  } catch (e) {
    deps.log.log("error", "broker account not provisioned", { id: d.id, error: String(e) });
    return provisioningKey(e);
  }
}

/**
 * Brings the broker along after a create (`prev` null) or an edit, when MQTT_DYNSEC is on.
 *
 * Failure policy: the change is written first (the device id and the unique checks come
 * from the store), then the broker is told. When the broker refuses or cannot be reached,
 * the write is undone — a created device is deleted again, an edited one gets its previous
 * record back and the broker its previous account (best effort) — and the admin gets a
 * 502 with the reason (the refusal this throws). So the portal and the broker never disagree silently, and there is
 * no "not provisioned" state waiting for a retry: the admin saves again once the broker is
 * back. Deletes go the other way round (see {@link deleteSensor}).
 */
async function followBroker(
  deps: Deps,
  saved: StoredDevice,
  prev: StoredDevice | null,
): Promise<void> {
  if (!dynsecEnabled(deps) || (prev && !accountChanged(prev, saved))) return;
  const failed = await provisionStored(deps, saved, prev?.config.mqtt.username ?? null);
  if (!failed) return;
  if (prev) {
    await updateDevice(deps.kv, saved.id, (cur) => ({ ...prev, parent_id: cur.parent_id }));
    if (prev.mqtt_password_sealed) {
      await provisionStored(deps, prev, saved.config.mqtt.username);
    }
  } else {
    await deleteDevice(deps.kv, saved.id);
    await unprovisionDevice(deps, saved.id, saved.config.mqtt.username).catch((e) =>
      deps.log.log("warn", "broker account of an undone device not removed", {
        id: saved.id,
        error: String(e),
      })
    );
  }
  throw brokerFailure(failed);
}

/**
 * Creates a device with the password of the body (a blank one stores the hash of "" only)
 * and brings the broker along ({@link followBroker}: refused, and undone, when it cannot).
 */
export async function createFollowed(
  deps: Deps,
  parentId: number | null,
  password: string | undefined,
  build: (
    id: number,
    parent: StoredDevice | null,
    pw: PasswordFields,
  ) => StoredDevice | WriteRefusal,
): Promise<WriteResult> {
  const pw = (await passwordFields(deps, password)) ??
    { mqtt_password_hash: await hashMqttPassword("") };
  const audit = auditStamp(deps, "device.create", "device:new");
  const res = await createDevice(deps.kv, parentId, (id, parent) => build(id, parent, pw), audit);
  if (res.ok) await followBroker(deps, res.device, null);
  return res;
}

/**
 * Edits a device, with the password of the body or, when it is blank, the current one, and
 * brings the broker along ({@link followBroker}). `also` adds other keys to the commit.
 */
export async function updateFollowed(
  deps: Deps,
  id: number,
  password: string | undefined,
  build: (
    cur: StoredDevice,
    parent: StoredDevice | null,
    pw: PasswordFields,
  ) => StoredDevice | WriteRefusal | Promise<StoredDevice | WriteRefusal>,
  also?: StageAlso,
): Promise<WriteResult> {
  const pw = await passwordFields(deps, password);
  let prev: StoredDevice | null = null;
  const kind = pw ? "device.credentials" : "device.update";
  const res = await updateDevice(
    deps.kv,
    id,
    (cur, parent) => {
      prev = cur;
      return build(cur, parent, pw ?? storedPassword(cur));
    },
    also,
    auditStamp(deps, kind, `device:${id}`),
  );
  if (res.ok) await followBroker(deps, res.device, prev);
  return res;
}

/**
 * Removes a device's broker account before its record goes; refused (502, the reason's
 * locale key) when the broker cannot be told.
 */
export async function leaveBroker(deps: Deps, d: StoredDevice): Promise<void> {
  if (!dynsecEnabled(deps)) return;
  try {
    await unprovisionDevice(deps, d.id, d.config.mqtt.username);
  } catch (e) {
    deps.log.log("error", "broker account not removed", { id: d.id, error: String(e) });
    throw brokerFailure(provisioningKey(e));
  }
}
