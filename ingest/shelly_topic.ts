/**
 * Shelly topics under a device prefix (pure). Prefixes are two levels, `sensor/{serial
 * lowercased}` or `station/{serial}`; what follows is the Shelly topic:
 * `online`, `status/<component>`, `events/rpc`, or anything else.
 */

/** A topic split into the device prefix and the rest. */
export interface DeviceTopic {
  /** `sensor/<id>` or `station/<id>`. */
  prefix: string;
  /** The Shelly topic after the prefix, e.g. `online`, `status/em:0`, `events/rpc`. */
  rest: string;
}

/**
 * What a Shelly topic carries. `unused` is a known Shelly topic that holds nothing ingest
 * keeps (RPC requests to the device, commands, debug log, the whole-device status);
 * `other` is not a Shelly topic.
 */
type TopicKind =
  | { kind: "online" }
  | { kind: "status"; component: string }
  | { kind: "events_rpc" }
  | { kind: "unused" }
  | { kind: "other" };

const ROOTS = new Set(["sensor", "station"]);

/**
 * Splits `sensor/<id>/<rest>` or `station/<id>/<rest>`; null when the topic has another
 * root, an empty id, or nothing after the prefix.
 */
export function splitDeviceTopic(topic: string): DeviceTopic | null {
  const first = topic.indexOf("/");
  if (first <= 0 || !ROOTS.has(topic.slice(0, first))) return null;
  const second = topic.indexOf("/", first + 1);
  if (second <= first + 1 || second === topic.length - 1) return null;
  return { prefix: topic.slice(0, second), rest: topic.slice(second + 1) };
}

const ONLINE: TopicKind = { kind: "online" };
const EVENTS_RPC: TopicKind = { kind: "events_rpc" };
const OTHER: TopicKind = { kind: "other" };
const UNUSED: TopicKind = { kind: "unused" };
const UNUSED_TOPICS = new Set(["rpc", "command", "status", "debug/log", "events"]);

/** Classifies the part of a topic after the device prefix. */
export function classifyTopic(rest: string): TopicKind {
  if (rest === "online") return ONLINE;
  if (rest === "events/rpc") return EVENTS_RPC;
  if (rest.startsWith("status/")) {
    const component = rest.slice(7);
    if (component.length > 0 && !component.includes("/")) return { kind: "status", component };
    return OTHER;
  }
  if (UNUSED_TOPICS.has(rest) || rest.startsWith("command/")) return UNUSED;
  return OTHER;
}
