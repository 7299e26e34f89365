/**
 * Reconciliation (issue 12): the sweep that asks Openpay about every charge still in progress
 * (a lost webhook still ends right), expires references past their expiry date and sends the
 * ones Openpay no longer knows to the admin's review (`forgotten.ts`), and the
 * admin's view of charges, events and the flags a person must look at.
 */
import type { Deps } from "../deps.ts";
import {
  getCharge,
  getVerification,
  listCharges,
  listEvents,
  listFlags,
  openChargeIds,
  type StoredCharge,
} from "../../db/payments.ts";
import { type PaymentFlag, type StoredEvent } from "../../core/payment_events.ts";
import { getUnitBill } from "../../db/bills.ts";
import { getUsers } from "../../db/users.ts";
import { getDevices } from "../../db/devices.ts";
import type { UnitBill } from "../../core/bill.ts";
import { type ListQuery, matches, type Page, paginate } from "../../core/paging.ts";
import { openpayClient, openpayConfigured, OpenpayError } from "./openpay_client.ts";
import { settleEnded, settlePaid } from "./settle.ts";
import { forgetCharge, processorForgot } from "./forgotten.ts";

/** What a reconciliation sweep did. */
export interface ReconcileResult {
  checked: number;
  paid: number;
  expired: number;
  /** Charges the processor no longer knows (sent to the admin's review). */
  unknown: number;
}

/** Asks Openpay about each open charge; expires the ones past their expiry (see module text). */
export async function reconcileCharges(deps: Deps): Promise<ReconcileResult> {
  const result: ReconcileResult = { checked: 0, paid: 0, expired: 0, unknown: 0 };
  const s = deps.config.openpay;
  for (const id of await openChargeIds(deps.kv)) {
    const stored = await getCharge(deps.kv, id);
    if (!stored) continue;
    result.checked++;
    const source = { event: "sweep", cause: "reference_expired" as const };
    let status = "in_progress";
    if (openpayConfigured(s)) {
      try {
        const fetched = await openpayClient(s).getCharge(id);
        status = fetched.status;
        if (status === "completed") {
          const paid = await settlePaid(deps, fetched, {
            event: "sweep",
            cause: "processor_event",
          });
          if (paid === "handled") result.paid++;
          continue;
        }
      } catch (e) {
        if (!(e instanceof OpenpayError)) throw e;
        if (await processorForgot(openpayClient(s), stored, e)) {
          await forgetCharge(deps, stored, "sweep");
          result.unknown++;
          continue;
        }
        deps.log.log("warn", "reconciliation could not read a charge", { charge: id });
      }
    }
    const past = stored.expiry_date !== null && Date.parse(stored.expiry_date) <= deps.now();
    if (status === "cancelled" || past) {
      if (await settleEnded(deps, id, "reference_expired", source) === "handled") result.expired++;
    } else if (status === "failed") await settleEnded(deps, id, "failed", source);
  }
  return result;
}

/** A charge row of the admin's payments page. */
export interface ChargeRow {
  charge: StoredCharge;
  bill: UnitBill | null;
  tenant: string;
  /** The bill's unit and station by name (the unit id when the station no longer names it). */
  unit: string;
  station: string;
}

/** What the admin's payments page shows. */
export interface PaymentsOverview {
  /** One page of the charges, newest first. */
  charges: Page<ChargeRow>;
  flags: PaymentFlag[];
  events: StoredEvent[];
  verification: { code: string; at: string } | null;
}

/** The sort of the charges list (newest first). */
export const CHARGE_SORTS = ["created"] as const;

/**
 * The admin's reconciliation view: one page of the charges (searched by order id, charge id,
 * reference, bill or status) with bill and tenant read for that page only, flags, recent
 * events.
 */
export async function paymentsOverview(
  deps: Deps,
  query: Pick<ListQuery, "page" | "size" | "q">,
): Promise<PaymentsOverview> {
  const all = (await listCharges(deps.kv)).filter((c) =>
    matches(query.q, [c.order_id, c.id, c.reference, String(c.bill_id), c.status])
  );
  const page = paginate(all, query);
  const byId = new Map<number, UnitBill>();
  for (const id of new Set(page.rows.map((c) => c.bill_id))) {
    const b = await getUnitBill(deps.kv, id);
    if (b) byId.set(id, b);
  }
  const users = await getUsers(deps.kv, [...byId.values()].map((b) => b.tenant_id));
  const stations = new Map(
    (await getDevices(deps.kv, [...new Set([...byId.values()].map((b) => b.station_id))]))
      .map((s) => [s.id, s]),
  );
  return {
    charges: {
      ...page,
      rows: page.rows.map((c) => {
        const bill = byId.get(c.bill_id) ?? null;
        const u = bill?.tenant_id != null ? users.get(bill.tenant_id) : undefined;
        const station = bill ? stations.get(bill.station_id) : undefined;
        const unit = bill
          ? station?.config.station?.units.find((x) => x.id === bill.unit_id)?.name ?? bill.unit_id
          : "";
        return {
          charge: c,
          bill,
          tenant: u ? (u.full_name || u.email) : "",
          unit,
          station: station?.name ?? "",
        };
      }),
    },
    flags: await listFlags(deps.kv),
    events: (await listEvents(deps.kv)).slice(0, 100),
    verification: await getVerification(deps.kv),
  };
}
