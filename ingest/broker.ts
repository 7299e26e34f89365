/**
 * The embedded MQTT broker (aedes on `node:net`), used when no `MQTT_URL` is configured.
 * Every device signs in with its own MQTT username and password (checked by the
 * {@link DeviceDirectory}) and may publish and subscribe only under its own topic prefix;
 * the ingest client signs in with its own credentials and may subscribe to everything
 * and publish under `sensor/` and `station/`. Anything else is refused: a refused publish
 * closes the client's connection (MQTT 3.1.1 has no negative acknowledgement), a refused
 * subscription is answered with the failure code 0x80. Sessions live in memory.
 *
 * With `tls` it also serves MQTT over TLS (`node:tls`) with a server certificate from the
 * portal's CA; when client certificates are required, the TLS handshake refuses a client
 * that presents none or one not signed by that CA, before any MQTT packet is read.
 */
import { Aedes, type AuthenticateError, type Client, type PublishPacket } from "aedes";
import { createServer, type Server, type Socket } from "node:net";
import { createServer as createTlsServer, type TLSSocket } from "node:tls";
import { timingSafeEqual } from "node:crypto";
import { Buffer } from "node:buffer";
import type { DeviceDirectory, IngestDevice } from "./contract.ts";
import { type IngestLog, SILENT_LOG, throttledLog } from "./_log.ts";
import { DEFAULT_MAX_PACKET_BYTES, guardPackets } from "./packet_guard.ts";
import { ADDRESS_BACKOFF, ConnectBackoff, USERNAME_BACKOFF } from "./connect_backoff.ts";
import { SharedSubscriptions } from "./broker_share.ts";

/** MQTT credentials. */
interface Credentials {
  username: string;
  password: string;
}

/** What {@link startEmbeddedBroker} needs. */
interface EmbeddedBrokerOptions {
  /** TCP port; 0 picks a free one. Default 1883. */
  port?: number;
  /**
   * Address to listen on. Default `127.0.0.1` (this machine only); the portal passes
   * `MQTT_HOSTNAME`, which is `0.0.0.0` in production so meters on the network reach it.
   */
  hostname?: string;
  directory: DeviceDirectory;
  /** The credentials of ingest clients. */
  ingestCredentials: Credentials;
  log?: IngestLog;
  /** Largest MQTT packet a client may send (bytes); 64 KB unless given. */
  maxPacketBytes?: number;
  /** MQTT over TLS on a second port; absent: plain MQTT only. */
  tls?: BrokerTls;
  /**
   * Ingest in this process (`Ingest.receive`): every publish the broker lets through under
   * `sensor/` and `station/` (Last Wills too) is handed to it first, and a QoS 1 or 2
   * publish is acknowledged only once the promise resolves, that is once the reading is
   * durable in the telemetry store. A rejection closes the publisher's connection without
   * an acknowledgement, so the meter sends the message again.
   */
  receive?: (topic: string, payload: Uint8Array) => Promise<void>;
}

/** The TLS listener of the embedded broker. */
export interface BrokerTls {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Server certificate and key (PEM). */
  certPem: string;
  keyPem: string;
  /** The CA that signs client certificates (PEM). */
  caPem: string;
  /** Refuse clients without a certificate signed by `caPem`. */
  requireClientCert: boolean;
}

/** A running embedded broker. */
export interface EmbeddedBroker {
  port: number;
  hostname: string;
  /** `mqtt://<host>:<port>` for clients on this machine. */
  url: string;
  /** Port of MQTT over TLS, or null when TLS is off. */
  tlsPort: number | null;
  /** `mqtts://<host>:<tlsPort>` for clients on this machine, or null when TLS is off. */
  tlsUrl: string | null;
  /** Connected clients now. */
  clients(): number;
  /** Closes every client connection and the listener. */
  close(): Promise<void>;
}

type Identity = { kind: "ingest" } | { kind: "device"; device: IngestDevice };

/** Return codes of CONNACK (MQTT 3.1.1). */
const IDENTIFIER_REJECTED = 2;
const SERVER_UNAVAILABLE = 3;
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;

function refusal(returnCode: number, message: string) {
  return Object.assign(new Error(message), { returnCode });
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}

const DEVICE_ROOTS = /^(sensor|station)\/[^/+#]+\//;

/** Starts the embedded broker and resolves once it listens. */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const log = options.log ?? SILENT_LOG;
  const throttled = throttledLog(log, 10_000, Date.now);
  const identities = new WeakMap<Client, Identity>();
  const ingestClientIds = new Set<string>();
  const broker = await Aedes.createBroker({ maxClientsIdLength: 128 });

  // Failed CONNECTs are counted per address and per username from that address: meter
  // usernames follow a known pattern, so failures from elsewhere must not hold a meter back.
  const byPair = new ConnectBackoff(USERNAME_BACKOFF);
  const byAddress = new ConnectBackoff(ADDRESS_BACKOFF);
  /** The common name of the verified client certificate a TLS connection presented. */
  const certNames = new WeakMap<object, string>();

  broker.authenticate = (client, username, password, done) => {
    const address = (client.conn as { remoteAddress?: string }).remoteAddress ?? "unknown";
    const pair = `${username ?? ""}\n${address}`;
    const now = Date.now();
    // A device showing its own certificate (signed by the portal's CA, its name the username)
    // is checked at once, whatever others failed from its address.
    const certified = !!username && certNames.get(client.conn) === username.toLowerCase();
    const waits = certified ? [0] : [
      byAddress.reserve(address, now),
      username ? byPair.reserve(pair, now) : 0,
    ];
    if (waits.includes(null)) {
      throttled.log("backoff", "warn", "broker refused a CONNECT during backoff", {
        username,
        address,
      });
      return done(refusal(SERVER_UNAVAILABLE, "too many failed attempts, try later"), false);
    }
    const wait = Math.max(...(waits as number[]));
    /** Counts a failed CONNECT against its username and address and refuses it. */
    const refuse = (returnCode: number, message: string) => {
      const at = Date.now();
      byAddress.fail(address, at);
      if (username) byPair.fail(pair, at);
      done(refusal(returnCode, message), false);
    };
    const succeed = () => {
      byPair.succeed(pair);
      done(null, true);
    };
    const check = () => authenticate(client, username, password, done, refuse, succeed);
    if (wait > 0) setTimeout(check, wait);
    else check();
  };

  function authenticate(
    client: Client,
    username: string | undefined,
    password: Buffer | undefined,
    done: (error: AuthenticateError | null, success: boolean | null) => void,
    refuse: (returnCode: number, message: string) => void,
    succeed: () => void,
  ) {
    const pass = password ? Buffer.from(password).toString("utf8") : "";
    if (!username) {
      throttled.log("anonymous", "warn", "broker refused a client without username", {});
      return refuse(NOT_AUTHORIZED, "a username is required");
    }
    const ingest = options.ingestCredentials;
    if (username === ingest.username && sameSecret(pass, ingest.password)) {
      identities.set(client, { kind: "ingest" });
      ingestClientIds.add(client.id);
      return succeed();
    }
    options.directory.authenticate(username, pass).then((device) => {
      if (!device) {
        throttled.log("bad-credentials", "warn", "broker refused wrong credentials", { username });
        return refuse(BAD_USERNAME_OR_PASSWORD, "bad username or password");
      }
      if (ingestClientIds.has(client.id)) {
        // A device must not take over (and so disconnect) an ingest client's session.
        throttled.log("ingest-id", "warn", "broker refused a device using an ingest client id", {
          username,
          clientId: client.id,
        });
        return done(refusal(IDENTIFIER_REJECTED, "client id reserved"), false);
      }
      identities.set(client, { kind: "device", device });
      succeed();
    }, (error) => {
      throttled.log("directory", "error", "broker could not check credentials", {
        error: error instanceof Error ? error.message : String(error),
      });
      done(refusal(SERVER_UNAVAILABLE, "credentials cannot be checked now"), false);
    });
  }

  const receive = options.receive;
  /** Lets an authorized publish through: after ingest made it durable, when ingest is here. */
  const accept = (packet: PublishPacket, done: (error?: Error | null) => void) => {
    if (!receive) return done(null);
    const stored = receive(packet.topic, packet.payload as Uint8Array);
    if (packet.qos === 0) {
      stored.catch(() => {});
      return done(null);
    }
    stored.then(() => done(null), (error) => {
      throttled.log("not-stored", "warn", "broker left a publish unacknowledged: not stored", {
        error: error instanceof Error ? error.message : String(error),
      });
      done(new Error("the reading could not be stored"));
    });
  };

  broker.authorizePublish = (client, packet, done) => {
    const topic = packet.topic;
    if (client === null) {
      // The Last Will of a client the broker no longer holds.
      if (!DEVICE_ROOTS.test(topic)) return done(new Error("not authorized"));
      return accept(packet, done);
    }
    const who = identities.get(client);
    const allowed = who?.kind === "ingest"
      ? DEVICE_ROOTS.test(topic)
      : who?.kind === "device" && topic.startsWith(who.device.prefix + "/");
    if (allowed) return accept(packet, done);
    throttled.log("publish-refused", "warn", "broker refused a publish outside the prefix", {
      clientId: client.id,
      topic: topic.slice(0, 200),
    });
    done(new Error(`not authorized to publish to ${topic.slice(0, 200)}`));
  };

  const shares = new SharedSubscriptions(broker);
  broker.published = (packet, _client, done) => {
    shares.fanOut(packet);
    done(null);
  };
  broker.authorizeForward = (_client, packet) => shares.forward(packet);

  broker.authorizeSubscribe = (client, subscription, done) => {
    const who = identities.get(client);
    const topic = subscription.topic;
    if (who?.kind === "ingest" && topic.startsWith("$share/")) {
      // Shared subscriptions, over MQTT 3.1.1 (see broker_share.ts).
      const own = shares.subscribe(client, topic);
      // In place: aedes keeps the SUBSCRIBE packet's own objects in the session.
      if (own) subscription.topic = own;
      if (own) return done(null, subscription);
    }
    const allowed = (who?.kind === "ingest" && !topic.startsWith("$")) ||
      (who?.kind === "device" && topic.startsWith(who.device.prefix + "/"));
    if (allowed) return done(null, subscription);
    throttled.log("subscribe-refused", "warn", "broker refused a subscription", {
      clientId: client.id,
      topic: topic.slice(0, 200),
    });
    done(null, null);
  };

  broker.on("clientError", (client, error) => {
    throttled.log("client-error", "debug", "broker client error", {
      clientId: client?.id,
      error: error.message,
    });
  });

  const maxPacket = options.maxPacketBytes ?? DEFAULT_MAX_PACKET_BYTES;
  /** The connection with its packets capped; an oversized packet closes it, logged. */
  const guarded = (socket: Socket) =>
    guardPackets(socket, maxPacket, (size) => {
      throttled.log("oversize", "warn", "broker closed a connection sending an oversized packet", {
        address: socket.remoteAddress ?? "unknown",
        bytes: size,
        max: maxPacket,
      });
    });
  const server: Server = createServer((socket) => broker.handle(guarded(socket)));
  const tls = options.tls;
  const tlsServer = tls
    ? createTlsServer({
      cert: tls.certPem,
      key: tls.keyPem,
      ca: [tls.caPem],
      requestCert: tls.requireClientCert,
      rejectUnauthorized: tls.requireClientCert,
      minVersion: "TLSv1.2",
    }, (socket: TLSSocket) => {
      const conn = guarded(socket);
      const name = socket.authorized ? socket.getPeerCertificate()?.subject?.CN : undefined;
      if (typeof name === "string") certNames.set(conn, name.toLowerCase());
      broker.handle(conn);
    })
    : null;
  tlsServer?.on("tlsClientError", (error: Error) => {
    throttled.log("tls-refused", "warn", "broker refused a TLS client", { error: error.message });
  });
  const hostname = options.hostname ?? "127.0.0.1";
  const listen = (s: Server, port: number) =>
    new Promise<void>((resolve, reject) => {
      s.once("error", reject);
      s.listen(port, hostname, () => {
        s.off("error", reject);
        resolve();
      });
    });
  const closeServer = (s: Server) =>
    new Promise<void>((resolve) => s.listening ? s.close(() => resolve()) : resolve());
  try {
    await listen(server, options.port ?? 1883);
    if (tlsServer && tls) await listen(tlsServer, tls.port);
  } catch (error) {
    await closeServer(server);
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    throw error;
  }
  const portOf = (s: Server, fallback: number) => {
    const address = s.address();
    return typeof address === "object" && address ? address.port : fallback;
  };
  const port = portOf(server, options.port ?? 1883);
  const tlsPort = tlsServer && tls ? portOf(tlsServer, tls.port) : null;
  const clientHost = hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname;
  log.log("info", "embedded MQTT broker listening", {
    hostname,
    port,
    tlsPort,
    requireClientCert: tls?.requireClientCert ?? false,
  });

  return {
    port,
    hostname,
    url: `mqtt://${clientHost}:${port}`,
    tlsPort,
    tlsUrl: tlsPort === null ? null : `mqtts://${clientHost}:${tlsPort}`,
    clients: () => broker.connectedClients,
    async close() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await closeServer(server);
      if (tlsServer) await closeServer(tlsServer);
    },
  };
}
