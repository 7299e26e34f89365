/**
 * "Acknowledged means stored" for ingest's own MQTT client (Mosquitto): mqtt.js would send a
 * QoS 1 message's PUBACK as soon as the message handler returned, before its readings reach
 * the store, so a crash could lose what the broker had already let go. Here the client's
 * `handleMessage` keeps the message ids instead (mqtt.js then sends nothing and goes on with
 * the next message), and after each group commit of the store (`IngestProcessor.durable`)
 * the PUBACKs of the messages it covered leave in one write, on the connection they came on.
 *
 * If the store refuses a commit, those messages are never acknowledged: the connection is
 * dropped, mqtt.js reconnects, and the broker sends them again from the persistent session.
 */
import type mqtt from "mqtt";

/** PUBACK of one message id (MQTT 3.1.1 and 5: no reason code means success). */
function pubacks(ids: readonly number[]): Uint8Array {
  const out = new Uint8Array(ids.length * 4);
  ids.forEach((id, i) => {
    out[i * 4] = 0x40;
    out[i * 4 + 1] = 0x02;
    out[i * 4 + 2] = id >> 8;
    out[i * 4 + 3] = id & 0xff;
  });
  return out;
}

/** Tells mqtt.js not to acknowledge a message itself (see the module's comment). */
const HELD = new Error("acknowledged after the store's commit");

/** The part of a connection the acknowledgements are written to. */
interface Connection {
  write(chunk: Uint8Array): boolean;
  destroy(error?: Error): void;
  readonly destroyed?: boolean;
  readonly writable?: boolean;
}

/** Holds a client's QoS 1 acknowledgements until `commit()` has stored their messages. */
export class AckAfterCommit {
  #held: number[] = [];
  #stream: Connection | null = null;
  #running: Promise<void> | null = null;

  constructor(
    private readonly client: mqtt.MqttClient,
    private readonly commit: () => Promise<void>,
    private readonly onRefused: (error: unknown) => void,
  ) {
    client.handleMessage = (packet, callback) => {
      if (packet.qos !== 1 || packet.messageId === undefined) return callback();
      const stream = client.stream as unknown as Connection;
      if (stream !== this.#stream) {
        // A new connection: ids held for the old one are void (the broker sends those
        // messages again on this one).
        this.#stream = stream;
        this.#held = [];
      }
      this.#held.push(packet.messageId);
      this.#running ??= this.#release().finally(() => this.#running = null);
      callback(HELD);
    };
  }

  /** Resolves once every held acknowledgement was sent or given up. */
  async settled(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #release(): Promise<void> {
    while (this.#held.length > 0) {
      const ids = this.#held;
      const stream = this.#stream!;
      this.#held = [];
      try {
        await this.commit();
      } catch (error) {
        this.onRefused(error);
        if (this.#stream === stream) {
          this.#held = [];
          this.#stream = null;
        }
        if (!stream.destroyed) stream.destroy();
        continue;
      }
      if (stream === this.#stream && !stream.destroyed && stream.writable !== false) {
        stream.write(pubacks(ids));
      }
    }
  }
}
