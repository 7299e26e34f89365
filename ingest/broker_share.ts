/**
 * Shared subscriptions (`$share/<group>/<filter>`) on the embedded broker. aedes 1.2.0
 * speaks MQTT 3.1.1 only and knows nothing of `$share`, so the broker does it itself, over
 * 3.1.1 (as Mosquitto also allows): each member's subscription is kept under a private
 * topic, `$share/<group>/<member>/<filter>`; every publish that a group's filter matches is
 * copied once to that private topic of one member (the connected members take turns; with
 * none connected, a member's persistent session queues it), and the copy goes out to the
 * member under its original topic. A message therefore reaches exactly one member of each
 * group, whatever the group's size.
 */
import type { Aedes, AedesPublishPacket, Client, PublishPacket } from "aedes";

const SHARE = /^\$share\/([^/+#]+)\/(.+)$/;

/** Whether an MQTT topic filter matches a topic. */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split("/");
  const t = topic.split("/");
  for (let i = 0; i < f.length; i++) {
    if (f[i] === "#") return true; // also the parent level: `a/#` matches `a`
    if (i >= t.length) return false;
    if (f[i] !== "+" && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}

interface Member {
  /** Its number in the private topics. */
  key: number;
  filters: Set<string>;
}

/** The shared subscriptions of one broker. */
export class SharedSubscriptions {
  readonly #groups = new Map<string, Map<string, Member>>();
  readonly #turn = new Map<string, number>();
  readonly #connected = new Set<string>();
  /** Private topics given out, with their client ids. */
  readonly #issued = new Map<string, string>();
  /** The copies this made (never copied again, whatever their topic turns into). */
  readonly #copies = new WeakSet<object>();
  #nextKey = 1;

  constructor(private readonly broker: Aedes) {
    broker.on("client", (client) => void this.#connected.add(client.id));
    broker.on("clientDisconnect", (client) => {
      this.#connected.delete(client.id);
      // A clean session's subscriptions end with it; a persistent one keeps them.
      if (client.clean) this.#forget(client.id);
    });
  }

  /**
   * For a `$share/<group>/<filter>` subscription of `client`: registers it and answers the
   * private topic aedes is to subscribe the client to; null for any other topic, or a
   * malformed shared one (`$share/<group>` without a filter).
   */
  subscribe(client: Client, topic: string): string | null {
    // A persistent session's subscriptions come back already private.
    if (this.#issued.get(topic) === client.id) return topic;
    const m = SHARE.exec(topic);
    if (!m) return null;
    const [, group, filter] = m;
    let members = this.#groups.get(group);
    if (!members) this.#groups.set(group, members = new Map());
    let member = members.get(client.id);
    if (!member) members.set(client.id, member = { key: this.#nextKey++, filters: new Set() });
    member.filters.add(filter);
    const own = `$share/${group}/${member.key}/${filter}`;
    this.#issued.set(own, client.id);
    return own;
  }

  #forget(clientId: string): void {
    for (const [topic, id] of this.#issued) if (id === clientId) this.#issued.delete(topic);
    for (const [group, members] of this.#groups) {
      members.delete(clientId);
      if (members.size === 0) this.#groups.delete(group);
    }
  }

  /** Copies a publish to one member of each group whose filters match it. */
  fanOut(packet: AedesPublishPacket | PublishPacket): void {
    const topic = packet.topic;
    if (topic.startsWith("$") || this.#copies.has(packet)) return;
    for (const [group, members] of this.#groups) {
      const matching: [string, Member][] = [];
      for (const [id, member] of members) {
        for (const filter of member.filters) {
          if (topicMatches(filter, topic)) {
            matching.push([id, member]);
            break;
          }
        }
      }
      if (matching.length === 0) continue;
      const online = matching.filter(([id]) => this.#connected.has(id));
      const pool = online.length > 0 ? online : matching;
      const turn = this.#turn.get(group) ?? 0;
      this.#turn.set(group, turn + 1);
      const [, member] = pool[turn % pool.length];
      const copy: PublishPacket = {
        cmd: "publish",
        topic: `$share/${group}/${member.key}/${topic}`,
        payload: packet.payload,
        qos: packet.qos,
        retain: false,
        dup: false,
      };
      this.#copies.add(copy);
      this.broker.publish(copy, () => {});
    }
  }

  /**
   * The packet a member receives: a copy is put back under its original topic. In place:
   * aedes sends the packet it passed in when it empties a session's queue (the copy is
   * only ever delivered to its one member, so nobody else sees the change).
   */
  forward(packet: AedesPublishPacket): AedesPublishPacket {
    if (packet.topic.startsWith("$share/")) {
      packet.topic = packet.topic.split("/").slice(3).join("/");
    }
    return packet;
  }
}
