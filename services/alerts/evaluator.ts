/**
 * The reading rules in ingest's path (issue 30). Ingest hands each batch of samples to
 * {@link AlertEvaluator.samples}, which judges them against the rules in memory and moves a
 * watch per rule and meter (core/alerts_eval.ts): no store query per message. Only a
 * transition (an alert opens or clears) writes to KV, queued behind the previous write, off the
 * message's path. The rules and the meters' places are read again when their revisions move
 * (one read of two keys every few seconds), and the open alerts with them.
 */
import type { Deps } from "../deps.ts";
import type { Sample } from "../../db/telemetry/mod.ts";
import {
  type AlertRule,
  covers,
  type MeterPlace,
  READING_TEMPLATES,
} from "../../core/alert_rules.ts";
import { judge, newWatch, step, type Transition, type Watch } from "../../core/alerts_eval.ts";
import { alertRulesRevision, listAlertRules } from "../../db/alert_rules.ts";
import { devicesRevision } from "../../db/device_lists.ts";
import { activeAlerts } from "../../db/alerts.ts";
import { meterPlaces } from "./places.ts";
import { clearFor, openFor } from "./changes.ts";

/** Judges samples against the reading rules; see the module comment. */
export class AlertEvaluator {
  #deps: Deps;
  #rules: AlertRule[] = [];
  #places = new Map<string, MeterPlace>();
  /** The rules covering a meter with its watches (by serial as ingest names it), worked out on its first sample. */
  #bySerial = new Map<string, { rule: AlertRule; watch: Watch }[]>();
  #watches = new Map<string, Watch>();
  /** Rule and serial of the alerts unresolved when last read. */
  #open = new Set<string>();
  #revision = "";
  #writes: Promise<void> = Promise.resolve();
  #timer: ReturnType<typeof setInterval> | null = null;
  #refreshing: Promise<void> | null = null;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  /** Reads the rules, places and open alerts again when their revisions moved (or `force`). */
  refresh(force = false): Promise<void> {
    this.#refreshing ??= this.#refresh(force).finally(() => this.#refreshing = null);
    return this.#refreshing;
  }

  async #refresh(force: boolean): Promise<void> {
    const kv = this.#deps.kv;
    const rev = `${await alertRulesRevision(kv)}/${await devicesRevision(kv)}`;
    if (!force && rev === this.#revision) return;
    const rules = (await listAlertRules(kv)).filter((r) =>
      r.enabled && READING_TEMPLATES.includes(r.template)
    );
    const places = await meterPlaces(this.#deps);
    const open = new Set(
      (await activeAlerts(kv)).map((e) => `${e.value.rule_id}|${e.value.subject}`),
    );
    this.load(rules, places, open);
    this.#revision = rev;
  }

  /**
   * Uses these reading rules, meter places (by uppercased serial) and unresolved alerts (rule
   * id|serial) from now on. Watches are kept (a run under way goes on) but follow the store on
   * whether their alert is open.
   */
  load(rules: AlertRule[], places: Map<string, MeterPlace>, open: Set<string>): void {
    const ids = new Set(rules.map((r) => r.id));
    for (const [id, w] of this.#watches) {
      if (!ids.has(id.slice(0, id.indexOf("|")))) this.#watches.delete(id);
      else w.open = open.has(id);
    }
    this.#open = open;
    this.#rules = rules;
    this.#places = places;
    this.#bySerial.clear();
  }

  /** Judges a batch of samples (ingest's hook: synchronous, never throws, no I/O). */
  samples = (batch: readonly Sample[]): void => {
    if (this.#rules.length === 0) return;
    for (const s of batch) {
      let pairs = this.#bySerial.get(s.serial);
      if (pairs === undefined) this.#bySerial.set(s.serial, pairs = this.#pairsOf(s.serial));
      for (const p of pairs) {
        const t = step(p.watch, judge(p.rule, s.values), s.ts, p.rule.params.minutes);
        if (t) this.#write(p.rule, s.serial.toUpperCase(), t);
      }
    }
  };

  /** The rules covering a meter, each with its watch. */
  #pairsOf(serial: string): { rule: AlertRule; watch: Watch }[] {
    const up = serial.toUpperCase();
    const place = this.#places.get(up);
    if (!place) return [];
    return this.#rules.filter((r) => covers(r.scope, place)).map((rule) => {
      const id = `${rule.id}|${up}`;
      let watch = this.#watches.get(id);
      if (!watch) this.#watches.set(id, watch = newWatch(this.#open.has(id)));
      return { rule, watch };
    });
  }

  #write(rule: AlertRule, serial: string, t: Transition): void {
    const place = this.#places.get(serial)!;
    this.#writes = this.#writes.then(async () => {
      if (t.kind === "open") {
        await openFor(this.#deps, rule, place, t.at, t.value ?? null, t.key ?? null);
      } else await clearFor(this.#deps, rule, serial, t.at);
    }).catch((e) =>
      this.#deps.log.log("error", "alert not written", { rule: rule.id, serial, error: String(e) })
    );
  }

  /** Resolves once every transition judged so far is written. */
  async settled(): Promise<void> {
    let last: Promise<void>;
    do {
      last = this.#writes;
      await last;
    } while (last !== this.#writes);
  }

  /** Checks the revisions every `intervalMs` from now on. */
  start(intervalMs = 5_000): this {
    this.#timer = setInterval(() => {
      this.refresh().catch((e) =>
        this.#deps.log.log("warn", "alert rules not read", { error: String(e) })
      );
    }, intervalMs);
    return this;
  }

  /** Stops the checks and waits for the writes. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#refreshing;
    await this.settled();
  }
}
