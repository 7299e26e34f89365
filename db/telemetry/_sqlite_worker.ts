/// <reference lib="deno.worker" />
/**
 * The SQLite store's writer running in a worker thread (see _sqlite_offload.ts): it owns
 * the writing connection and answers each request `{ id, op, ... }` in order with
 * `{ id, ok: true, value }` or `{ id, ok: false, name, message }`.
 */
import type { DatabaseSync } from "node:sqlite";
import { type PackedBatch, unpackBatch } from "./_samples.ts";
import { openDatabase, Statements } from "./_sqlite_schema.ts";
import { SqliteWriter } from "./_sqlite_write.ts";
import { checkFileIdentity } from "./_sqlite_file.ts";

/** A request to the writer worker. */
export type WorkerRequest =
  | { id: number; op: "open"; path: string; identity: string }
  | { id: number; op: "write"; parts: PackedBatch[] }
  | { id: number; op: "merge" }
  | { id: number; op: "prune"; cutoff: number }
  | { id: number; op: "probe" }
  | { id: number; op: "close" };

let db: DatabaseSync | null = null;
let writer: SqliteWriter | null = null;

function handle(req: WorkerRequest): number | null {
  switch (req.op) {
    case "open": {
      const { path, identity } = req;
      checkFileIdentity(path, identity);
      db = openDatabase(path);
      writer = new SqliteWriter(db, new Statements(db), () => checkFileIdentity(path, identity));
      return null;
    }
    case "write":
      return open().write(
        req.parts.length === 1 ? unpackBatch(req.parts[0]) : req.parts.flatMap(unpackBatch),
      );
    case "merge":
      return open().merge();
    case "prune":
      return open().prune(req.cutoff);
    case "probe":
      open().probe();
      return null;
    case "close":
      db?.close();
      db = writer = null;
      return null;
  }
}

function open(): SqliteWriter {
  if (!writer) throw new TypeError("the telemetry writer is not open");
  return writer;
}

self.onmessage = (e: MessageEvent<WorkerRequest>) => {
  const req = e.data;
  try {
    self.postMessage({ id: req.id, ok: true, value: handle(req) });
  } catch (err) {
    const { name, message } = err instanceof Error ? err : new Error(String(err));
    self.postMessage({ id: req.id, ok: false, name, message });
  }
};
