/**
 * The reading rules in ingest's path (issue 30). Ingest hands each batch of samples to
 * {@link AlertEvaluator.samples}, which judges them against the rules in memory and moves a
 * watch per rule and meter (core/alerts_eval.ts): no store query per message, no allocation; a
 * meter's rules are worked out once per load, grouped by what their judges read (a reading is
 * judged once per group), and its watches packed in one array. Only a
 * transition (an alert opens or clears) writes to KV, queued behind the previous write, off the
 * message's path. The rules and the meters' places are read again when their revisions move
 * (one read of two keys at each of ingest's flushes: {@link AlertEvaluator.revalidate}), and
 * the open alerts with them. The portal's ingest and `deno task ingest` wire it the same way.
 */
import type { Deps } from "../deps.ts";
import type { Sample } from "../../db/telemetry/mod.ts";
import {
  type AlertRule,
  covers,
  type MeterPlace,
  READING_TEMPLATES,
} from "../../core/alert_rules.ts";
import {
  type Judge,
  judgeKey,
  judgeOf,
  newReading,
  newWatches,
  readInto,
  setWatchAt,
  stepAt,
  type Transition,
  type Verdict,
  watchAt,
  type Watches,
} from "../../core/alerts_eval.ts";
import { alertRulesRevision, listAlertRules } from "../../db/alert_rules.ts";
import { devicesRevision } from "../../db/device_lists.ts";
import { activeAlerts } from "../../db/alerts.ts";
import { meterPlaces } from "./places.ts";
import { clearFor, openFor } from "./changes.ts";

/** A rule with its judge (made at each load) and the key of what that judge reads. */
interface Compiled {
  rule: AlertRule;
  judge: Judge;
  key: string;
}

/**
 * What a meter is judged by, worked out at its first sample after each load: its rules in groups
 * that judge alike (group `g`'s watches end before `ends[g]`), each rule's minutes (ms) and its
 * watch, packed.
 */
interface Meter {
  generation: number;
  judges: Judge[];
  ends: number[];
  ids: string[];
  rules: AlertRule[];
  minutesMs: number[];
  watches: Watches;
}

/** Judges samples against the reading rules; see the module comment. */
export class AlertEvaluator {
  #deps: Deps;
  #rules: Compiled[] = [];
  #places = new Map<string, MeterPlace>();
  /** The meters met (by serial as ingest names it); one of an older load is worked out again. */
  #meters = new Map<string, Meter>();
  /** Moved by every load. */
  #generation = 0;
  /** The reading judged and the verdict each judge writes (one at a time: no allocation). */
  #reading = newReading();
  #verdict: Verdict = { state: "hold" };
  /** Rule and serial of the alerts unresolved when last read. */
  #open = new Set<string>();
  #revision = "";
  #writes: Promise<void> = Promise.resolve();
  #refreshing: Promise<void> | null = null;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  /** Reads the rules, places and open alerts again when their revisions moved (or `force`). */
  refresh(force = false): Promise<void> {
    this.#refreshing ??= this.#refresh(force).finally(() => this.#refreshing = null);
    return this.#refreshing;
  }

  /**
   * Ingest's flush hook: reads the rules again if their revision (or the devices') moved, in
   * the background (a read under way is not started twice); never throws.
   */
  revalidate = (): void => {
    this.refresh().catch((e) =>
      this.#deps.log.log("warn", "alert rules not read", { error: String(e) })
    );
  };

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
   * whether their alert is open (at each meter's next sample).
   */
  load(rules: AlertRule[], places: Map<string, MeterPlace>, open: Set<string>): void {
    this.#open = open;
    this.#rules = rules.map((rule) => ({ rule, judge: judgeOf(rule), key: judgeKey(rule) }));
    this.#places = places;
    this.#generation++;
  }

  /** Judges a batch of samples (ingest's hook: synchronous, never throws, no I/O). */
  samples = (batch: readonly Sample[]): void => {
    if (this.#rules.length === 0) return;
    const out = this.#verdict;
    for (let i = 0; i < batch.length; i++) {
      const s = batch[i];
      let m = this.#meters.get(s.serial);
      if (m === undefined || m.generation !== this.#generation) {
        this.#meters.set(s.serial, m = this.#meterOf(s.serial, m));
      }
      const { judges, ends, watches, minutesMs } = m;
      if (judges.length === 0) continue;
      const reading = readInto(s.values, this.#reading);
      let w = 0;
      for (let g = 0; g < judges.length; g++) {
        const verdict = judges[g](reading, out);
        for (const end = ends[g]; w < end; w++) {
          const t = stepAt(watches, w, verdict, s.ts, minutesMs[w]);
          if (t) this.#write(m.rules[w], s.serial.toUpperCase(), t);
        }
      }
    }
  };

  /** A meter's rules by group, its watches kept from `prev` (an older load's) where the rule is. */
  #meterOf(serial: string, prev: Meter | undefined): Meter {
    const up = serial.toUpperCase();
    const place = this.#places.get(up);
    const byKey = new Map<string, Compiled[]>();
    for (const c of place ? this.#rules : []) {
      if (!covers(c.rule.scope, place!)) continue;
      const same = byKey.get(c.key);
      if (same) same.push(c);
      else byKey.set(c.key, [c]);
    }
    const m: Meter = {
      generation: this.#generation,
      judges: [],
      ends: [],
      ids: [],
      rules: [],
      minutesMs: [],
      watches: newWatches(0),
    };
    for (const group of byKey.values()) {
      m.judges.push(group[0].judge);
      for (const c of group) {
        m.ids.push(c.rule.id);
        m.rules.push(c.rule);
        m.minutesMs.push(c.rule.params.minutes * 60_000);
      }
      m.ends.push(m.ids.length);
    }
    m.watches = newWatches(m.ids.length);
    m.ids.forEach((id, i) => {
      const was = prev ? prev.ids.indexOf(id) : -1;
      const w = was >= 0 ? watchAt(prev!.watches, was) : watchAt(m.watches, i);
      setWatchAt(m.watches, i, { ...w, open: this.#open.has(`${id}|${up}`) });
    });
    return m;
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

  /** Waits for a read of the rules under way and for the writes. */
  async stop(): Promise<void> {
    await this.#refreshing?.catch(() => {});
    await this.settled();
  }
}

/**
 * An evaluator for an ingest about to start: the rules read once (a failure is logged, and
 * they are read again at the next flush); hand `samples` and `revalidate` to ingest.
 */
export async function readyEvaluator(deps: Deps): Promise<AlertEvaluator> {
  const e = new AlertEvaluator(deps);
  await e.refresh().catch((err) =>
    deps.log.log("warn", "alert rules not read", { error: String(err) })
  );
  return e;
}
