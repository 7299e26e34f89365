/**
 * A cap on the size of MQTT packets a client may send to the embedded broker. The guard reads
 * each packet's fixed header (type byte and variable-length "remaining length") as bytes pass
 * and closes the connection as soon as a header announces a packet larger than the cap, before
 * its body is buffered: the device is free to reconnect at once.
 */
import { Duplex } from "node:stream";
import type { Socket } from "node:net";

/** The default cap: Shelly frames are a few KB. */
export const DEFAULT_MAX_PACKET_BYTES = 64 * 1024;

/** Tracks MQTT framing over a byte stream; `feed` returns the size of an oversized packet, or 0. */
export function packetSizer(max: number) {
  let skip = 0; // bytes of the current packet's body still to pass
  let header: number[] = []; // fixed header bytes read so far (type + length bytes)
  return (chunk: Uint8Array): number => {
    let i = 0;
    while (i < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - i);
        skip -= n;
        i += n;
        continue;
      }
      header.push(chunk[i++]);
      if (header.length === 1) continue;
      const last = header[header.length - 1];
      if (last & 0x80) {
        if (header.length > 5) return Number.MAX_SAFE_INTEGER; // malformed length
        continue;
      }
      let remaining = 0;
      for (let k = header.length - 1; k >= 1; k--) remaining = remaining * 128 + (header[k] & 0x7f);
      const size = header.length + remaining;
      header = [];
      if (size > max) return size;
      skip = remaining;
    }
    return 0;
  };
}

/**
 * `socket` wrapped so that a packet over `max` bytes closes it (calling `onOversize` with the
 * announced size first) instead of reaching the broker.
 */
export function guardPackets(
  socket: Socket,
  max: number,
  onOversize: (size: number) => void,
): Duplex & { remoteAddress?: string } {
  const feed = packetSizer(max);
  const wrapped: Duplex = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk, _encoding, callback) {
      // Handed to the socket at once (it keeps its own buffer): nothing the broker wrote is
      // lost when it closes the connection right after.
      if (socket.write(chunk)) callback();
      else socket.once("drain", () => callback());
    },
    final(callback) {
      socket.end(callback);
    },
    destroy(error, callback) {
      // Without an error the broker is done (a refusing CONNACK may still be on its way): end
      // the socket so that it is flushed first, and drop it if the peer does not close.
      if (error) socket.destroy();
      else {
        socket.end();
        setTimeout(() => socket.destroy(), 2_000).unref();
      }
      callback(error);
    },
  });
  socket.on("data", (chunk: Uint8Array) => {
    const size = feed(chunk);
    if (size > 0) {
      onOversize(size);
      socket.destroy();
      return;
    }
    if (!wrapped.push(chunk)) socket.pause();
  });
  socket.on("end", () => wrapped.push(null));
  socket.on("close", () => wrapped.destroy());
  socket.on("error", (e) => wrapped.destroy(e));
  // The broker reads the client's address from its connection.
  return Object.assign(wrapped, { remoteAddress: socket.remoteAddress });
}
