/**
 * The health checks of the parts beside the stores: MQTT (this process's broker and ingest,
 * `deps.runtime`) and the messages' outbox (its backlog in KV, and its folder
 * `DATA_DIR/outbox/` writable when it exists).
 */
import type { Deps } from "../deps.ts";
import { outboxBacklog } from "../../db/outbox_health.ts";

/** Facts a check reports. */
type Facts = Record<string, string | number | boolean>;

/**
 * MQTT: fails when this process runs ingest and it is not connected to its broker; reports the
 * embedded broker's clients. A process without MQTT (a script) reports `running: false`.
 */
export function mqttHealth(deps: Deps): Promise<Facts> {
  const state = deps.runtime?.mqtt();
  if (!state) return Promise.resolve({ running: false });
  if (state.ingestConnected === false) {
    return Promise.reject(new Error("ingest is not connected to the MQTT broker"));
  }
  const facts: Facts = { running: true, ingest: state.ingestConnected !== null };
  if (state.clients !== null) facts.clients = state.clients;
  return Promise.resolve(facts);
}

/**
 * The outbox: its backlog can be read from KV, and its folder (when there is one) written.
 * Reports the deliveries pending and those past their time.
 */
export async function outboxHealth(deps: Deps): Promise<Facts> {
  const backlog = await outboxBacklog(deps.kv, deps.now());
  const dir = `${deps.config.dataDir}/outbox`;
  const isDir = await Deno.stat(dir).then((s) => s.isDirectory, () => false);
  if (isDir) {
    const probe = `${dir}/.health-probe`;
    await Deno.writeTextFile(probe, String(deps.now()));
    await Deno.remove(probe);
  }
  return { ...backlog, folder: isDir };
}
