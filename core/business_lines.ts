/**
 * The lines a business bill adds to its details (issue 34), as the tenant's bill card, the
 * report page and the unit PDF show them (through core/reports.ts `factLines`): kWh and cost
 * per band, the demand peaks and when they happened, the distribution and capacity charges,
 * the low-tension 2 %, the power factor with its percentage, and what was estimated.
 */
import type { BusinessDetails } from "./business_bill.ts";
import { BANDS } from "./tou.ts";
import { formatterOf } from "./format.ts";

type Translate = (key: string, params?: Record<string, string | number>) => string;

/** What a line is about (also its test id). */
export type BusinessLineKind =
  | `band-${typeof BANDS[number]}`
  | "demand-max"
  | "demand-punta"
  | "distribution"
  | "capacity"
  | "low-tension"
  | "power-factor"
  | "business-estimated";

/** One line: its kind and its text. */
interface BusinessLine {
  kind: BusinessLineKind;
  text: string;
}

/** The lines of `b`; `money` formats cents. */
export function businessLines(
  t: Translate,
  b: BusinessDetails,
  money: (cents: number) => string,
): BusinessLine[] {
  const B = (k: string, p?: Record<string, string | number>) => t(`business_tariff.bill.${k}`, p);
  const f = formatterOf(t);
  /** `v` with its own decimals (`least` to `most`), grouped as the language writes numbers. */
  const num = (v: number, least: number, most: number) => {
    const decimals = String(Number(v.toFixed(most))).split(".")[1]?.length ?? 0;
    return f.number(v, Math.max(least, decimals));
  };
  const kwh = (v: number) => num(v, 0, 3);
  const price = (v: number) => num(v, 2, 4);
  const out: BusinessLine[] = BANDS.map((band) => ({
    kind: `band-${band}` as const,
    text: `${B(`bands.${band}`)} · ${kwh(b.bands[band].kwh)} kWh × ${
      price(b.bands[band].price)
    } = ${money(b.bands[band].cost)}`,
  }));
  const peak = (label: string, p: BusinessDetails["demand"]["max"]) =>
    `${B(label)}: ${p.local ? B("at", { kw: kwh(p.kw), when: p.local }) : `${kwh(p.kw)} kW`}`;
  out.push({ kind: "demand-max", text: peak("demand_max", b.demand.max) });
  out.push({ kind: "demand-punta", text: peak("demand_punta", b.demand.punta) });
  for (const k of ["distribution", "capacity"] as const) {
    const c = b[k];
    if (c) {
      const text = B(k, { kw: kwh(c.kw), price: price(c.price) });
      out.push({ kind: k, text: `${text} = ${money(c.cost)}` });
    }
  }
  if (b.low_tension !== null) {
    out.push({ kind: "low-tension", text: `${B("low_tension")} = ${money(b.low_tension)}` });
  }
  const pf = b.power_factor;
  if (pf) {
    const text = B(pf.kind === "bonus" ? "pf_bonus" : "pf_surcharge", {
      factor: pf.factor,
      percent: pf.percent,
    });
    out.push({ kind: "power-factor", text: `${text} = ${money(pf.amount)}` });
  }
  if (b.estimated?.length) {
    const parts = b.estimated.map((p) => B(`estimated_parts.${p}`)).join(", ");
    // No 15-minute detail at all (the demand too): the kWh went by the bands' hours and the
    // demand is the period's average power; otherwise the measured shares were stretched.
    const how = b.estimated.includes("demand") ? "estimated_flat" : "estimated";
    out.push({ kind: "business-estimated", text: B(how, { parts }) });
  }
  return out;
}
