/**
 * A simulated Shelly Pro 3EM on the network: an mqtt.js client with the meter's own
 * credentials, client id `shellypro3em-<serial>`, Last Will `<prefix>/online` = `false`,
 * `online` = `true` (retained) on every connect, and the {@link MeterModel}'s messages at
 * QoS 1 on each tick. Ticks are driven by the caller (`scripts/simulate.ts`, tests).
 */
import mqtt from "mqtt";
import { createMeter, type MeterModel, stepMeter, tickMessages } from "./sim.ts";

/** What {@link connectSimMeter} needs. */
export interface SimMeterOptions {
  url: string;
  serial: string;
  username: string;
  password: string;
  /** The model's clock (epoch ms) at each tick; default the wall clock. */
  now?: () => number;
  /** See `tickMessages`. */
  statusEvery?: number;
  dataEvery?: number;
  /** Wait before reconnecting after a dropped connection. Default 1 000 ms. */
  reconnectMs?: number;
  /** Fail instead of retrying when the first connection is refused. Default true. */
  failFast?: boolean;
}

/** A connected simulated meter. */
export interface SimMeter {
  model: MeterModel;
  client: mqtt.MqttClient;
  /** Messages the broker acknowledged so far. */
  acked(): number;
  /** Advances the model and publishes one tick; resolves when the broker acknowledged all. */
  tick(): Promise<number>;
  /** Publishes one message at QoS 1; resolves when acknowledged. */
  publish(topic: string, payload: string, retain?: boolean): Promise<void>;
  /** Kills the socket without DISCONNECT (the broker publishes the Will); reconnects later. */
  dropConnection(): void;
  /** Kills the socket without DISCONNECT and never comes back. */
  die(): Promise<void>;
  /** Disconnects cleanly (no Will). */
  stop(): Promise<void>;
}

/** Connects a simulated meter and resolves after its first CONNACK. */
export async function connectSimMeter(options: SimMeterOptions): Promise<SimMeter> {
  const now = options.now ?? Date.now;
  const model = createMeter(options.serial, { t: now() });
  const onlineTopic = `${model.prefix}/online`;
  let tick = 0;
  let acked = 0;
  const client = mqtt.connect(options.url, {
    clientId: model.deviceId,
    username: options.username,
    password: options.password,
    clean: true,
    protocolVersion: 4,
    keepalive: 60,
    reconnectPeriod: options.reconnectMs ?? 1_000,
    connectTimeout: 10_000,
    will: { topic: onlineTopic, payload: "false", qos: 0, retain: false },
  });
  client.on("connect", () => {
    tick = 0;
    client.publish(onlineTopic, "true", { qos: 1, retain: true }, () => {});
  });
  client.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => {
      if (options.failFast ?? true) {
        client.end(true);
        reject(error);
      }
    };
    client.once("connect", () => {
      client.off("error", fail);
      resolve();
    });
    client.once("error", fail);
  });

  const publish = (topic: string, payload: string, retain = false) =>
    new Promise<void>((resolve, reject) => {
      client.publish(topic, payload, { qos: 1, retain }, (error) => {
        if (error) return reject(error);
        acked++;
        resolve();
      });
    });

  return {
    model,
    client,
    acked: () => acked,
    async tick() {
      stepMeter(model, now());
      const messages = tickMessages(model, {
        tick: tick++,
        statusEvery: options.statusEvery,
        dataEvery: options.dataEvery,
      });
      await Promise.all(messages.map((m) => publish(m.topic, m.payload, m.retain)));
      return messages.length;
    },
    publish,
    dropConnection() {
      client.stream?.destroy();
    },
    async die() {
      await new Promise<void>((resolve) => client.end(true, () => resolve()));
    },
    async stop() {
      await new Promise<void>((resolve) => client.end(false, () => resolve()));
    },
  };
}
