/**
 * The bill's rules (core/bill.ts, issue 9; spec 001 sections 3, 4 and 9): the payment states
 * and every allowed change between them (and the refused ones), the late fee of the legal
 * terms (50.00 MXN, once, MXN bills only), what the tenant owes, the payment history, the list
 * and report status derivations of spec section 4, a station's payment status, when a bill may
 * be deleted, when it is past due, and the finalization of a bill (a total of 0 is settled).
 */
import assert from "node:assert/strict";
import { buildUnitBill, finalization, type UnitBill } from "./bill.ts";
import { listStatus, reportStatus, stationPaymentStatus } from "./bill_status.ts";
import {
  amountDue,
  changePayment,
  deleteBlocker,
  dueDateAfter,
  isPastDue,
  LATE_FEE_CENTS,
  nothingDue,
  PAYMENT_STATUSES,
  PAYMENT_TRANSITIONS,
  type PaymentCause,
  type PaymentStatus,
  PaymentTransitionError,
} from "./payment.ts";
import { computeUnitBill } from "./tariff.ts";
import { defaultZone } from "./zone.ts";
import { storedUnitBill } from "../tests/_bills.ts";

const AT = "2026-12-20T17:00:00.000Z";

/** A finalized MXN bill of 433.69 due 2026-12-17, pending. */
function bill(over: Partial<UnitBill> = {}): UnitBill {
  return storedUnitBill({
    id: 7,
    station_id: 3,
    billing_month: "2026-11",
    energy_consumption: 250,
    energy_cost: 33000,
    tax_cost: 6369,
    total_cost: 43369,
    payment_due_date: "2026-12-17",
    is_finalized: true,
    finalized_at: "2026-12-03T15:00:00.000Z",
    calculation_details: { pricing_mode: "basic", season: null, tiers: [] },
    tenant_id: 11,
    sensor_serial: "SIM-A",
    created_at: "2026-12-03T15:00:00.000Z",
    updated_at: "2026-12-03T15:00:00.000Z",
    ...over,
  });
}

const change = (
  cause: "due_date_passed" | "recorded_by_admin" | "processor_event" = "processor_event",
) => ({
  at: AT,
  cause,
  by: null,
});

Deno.test("the payment transitions are exactly the issue's table; paid is final", () => {
  assert.deepEqual([...PAYMENT_STATUSES].sort(), [
    "awaiting_spei_transfer",
    "failed",
    "overdue",
    "paid",
    "pending",
    "reference_expired",
  ]);
  const want: Record<PaymentStatus, PaymentStatus[]> = {
    pending: ["awaiting_spei_transfer", "overdue", "paid"],
    awaiting_spei_transfer: ["failed", "paid", "reference_expired"],
    reference_expired: ["awaiting_spei_transfer", "overdue", "paid"],
    overdue: ["awaiting_spei_transfer", "paid"],
    failed: ["awaiting_spei_transfer", "overdue", "paid"],
    paid: [],
  };
  for (const s of PAYMENT_STATUSES) {
    assert.deepEqual([...PAYMENT_TRANSITIONS[s]].sort(), want[s], s);
  }
});

Deno.test("every allowed change is made and kept in the history with its cause", () => {
  for (const from of PAYMENT_STATUSES) {
    for (const to of PAYMENT_TRANSITIONS[from]) {
      const before = bill({ payment_status: from });
      const after = changePayment(before, to, change());
      assert.equal(after.payment_status, to, `${from} → ${to}`);
      assert.equal(after.payment_history.length, 1);
      assert.equal(after.payment_history[0].from, from);
      assert.equal(after.payment_history[0].to, to);
      assert.equal(after.payment_history[0].cause, "processor_event");
      assert.equal(after.updated_at, AT);
      // The bill given is not changed.
      assert.equal(before.payment_status, from);
      assert.deepEqual(before.payment_history, []);
    }
  }
});

Deno.test("a change the table does not allow throws PaymentTransitionError and changes nothing", () => {
  const refused: [PaymentStatus, PaymentStatus][] = [
    ["paid", "pending"],
    ["paid", "overdue"],
    ["paid", "awaiting_spei_transfer"],
    ["paid", "paid"],
    ["pending", "failed"],
    ["pending", "reference_expired"],
    ["pending", "pending"],
    ["awaiting_spei_transfer", "overdue"],
    ["awaiting_spei_transfer", "pending"],
    ["awaiting_spei_transfer", "awaiting_spei_transfer"],
    ["overdue", "pending"],
    ["overdue", "failed"],
    ["overdue", "reference_expired"],
    ["overdue", "overdue"],
    ["reference_expired", "failed"],
    ["failed", "reference_expired"],
  ];
  for (const [from, to] of refused) {
    const b = bill({ payment_status: from });
    assert.throws(
      () => changePayment(b, to, change()),
      (e) => e instanceof PaymentTransitionError && e.from === from && e.to === to,
      `${from} → ${to}`,
    );
    assert.equal(b.payment_status, from);
  }
  // Every pair outside the table is refused too.
  for (const from of PAYMENT_STATUSES) {
    for (const to of PAYMENT_STATUSES) {
      if (PAYMENT_TRANSITIONS[from].includes(to)) continue;
      assert.throws(() => changePayment(bill({ payment_status: from }), to, change()), {
        name: "PaymentTransitionError",
      });
    }
  }
});

Deno.test("overdue adds the 50.00 MXN late fee once; amountDue is the total plus the fee", () => {
  assert.equal(LATE_FEE_CENTS, 5000);
  const b = bill();
  assert.equal(amountDue(b), 43369);
  const late = changePayment(b, "overdue", change("due_date_passed"));
  assert.equal(late.late_fee, 5000);
  assert.equal(late.total_cost, 43369, "the fee is not part of the bill's total");
  assert.equal(amountDue(late), 48369);
  assert.equal(late.payment_history[0].late_fee, 5000);
  // A new reference that expires, then overdue again: no second fee.
  const ref = changePayment(late, "awaiting_spei_transfer", {
    at: AT,
    cause: "reference_created",
    by: null,
  }, { spei_reference: "R1", spei_expiry_date: "2026-12-25T00:00:00.000Z" });
  const expired = changePayment(ref, "reference_expired", {
    at: AT,
    cause: "reference_expired",
    by: null,
  });
  const again = changePayment(expired, "overdue", change("due_date_passed"));
  assert.equal(again.late_fee, 5000);
  assert.equal(amountDue(again), 48369);
  assert.equal(again.payment_history.length, 4);
  assert.equal(again.payment_history[3].late_fee, undefined);
  // A failed reference going overdue after a fee was charged: still one fee.
  const failed = changePayment(
    changePayment(again, "awaiting_spei_transfer", {
      at: AT,
      cause: "reference_created",
      by: null,
    }),
    "failed",
    change(),
  );
  assert.equal(changePayment(failed, "overdue", change("due_date_passed")).late_fee, 5000);
});

Deno.test("the late fee is charged on MXN bills only", () => {
  for (const currency of ["USD", "EUR"]) {
    const late = changePayment(bill({ currency }), "overdue", change("due_date_passed"));
    assert.equal(late.payment_status, "overdue");
    assert.equal(late.late_fee, 0, currency);
    assert.equal(amountDue(late), 43369);
    assert.equal(late.payment_history[0].late_fee, undefined);
  }
});

Deno.test("paid takes the payment date given, else the change's date; other states have none", () => {
  const atOffice = {
    at: AT,
    cause: "recorded_by_admin",
    by: "admin@test.mx",
    method: "cash",
    reference: "REC-1",
    note: "at the office",
  } as const;
  const recorded = changePayment(bill(), "paid", atOffice, { payment_date: "2026-12-15" });
  assert.equal(recorded.payment_status, "paid");
  assert.equal(recorded.payment_date, "2026-12-15");
  // The history keeps the change as given, with where it came from and went to.
  assert.deepEqual(recorded.payment_history, [{ from: "pending", to: "paid", ...atOffice }]);
  const byProcessor = changePayment(
    bill({ payment_status: "awaiting_spei_transfer" }),
    "paid",
    change(),
  );
  assert.equal(byProcessor.payment_date, "2026-12-20");
  // A state other than paid has no payment date.
  assert.equal(changePayment(bill(), "overdue", change("due_date_passed")).payment_date, null);
});

Deno.test("the payment history keeps every change in order, oldest first", () => {
  let b = bill({
    payment_history: [{
      from: null,
      to: "pending",
      at: "2026-12-03T15:00:00.000Z",
      cause: "finalized",
      by: null,
    }],
  });
  const automatic: [PaymentStatus, string, PaymentCause][] = [
    ["awaiting_spei_transfer", "2026-12-04T10:00:00.000Z", "reference_created"],
    ["reference_expired", "2026-12-09T10:00:00.000Z", "reference_expired"],
    ["overdue", "2026-12-18T06:00:00.000Z", "due_date_passed"],
  ];
  for (const [to, at, cause] of automatic) b = changePayment(b, to, { at, cause, by: null });
  b = changePayment(b, "paid", {
    at: "2026-12-20T10:00:00.000Z",
    cause: "recorded_by_admin",
    by: "admin@test.mx",
    method: "transfer",
  }, { payment_date: "2026-12-19" });
  assert.deepEqual(
    b.payment_history.map((h) => [h.from, h.to, h.cause]),
    [
      [null, "pending", "finalized"],
      ["pending", "awaiting_spei_transfer", "reference_created"],
      ["awaiting_spei_transfer", "reference_expired", "reference_expired"],
      ["reference_expired", "overdue", "due_date_passed"],
      ["overdue", "paid", "recorded_by_admin"],
    ],
  );
  assert.equal(b.payment_history[4].by, "admin@test.mx");
  assert.equal(b.payment_history[4].method, "transfer");
  assert.equal(b.late_fee, 5000);
  assert.equal(amountDue(b), 48369);
  assert.equal(b.payment_date, "2026-12-19");
});

Deno.test("list status follows spec section 4: recalculated, partially saved, saved, estimate, not saved", () => {
  const flags = (over: Partial<UnitBill>) => bill({ is_finalized: false, ...over });
  const cases: [Partial<UnitBill>, boolean, string, string][] = [
    [{ is_finalized: true, override_reason: "meter replaced" }, false, "recalculated", "purple"],
    [{ is_finalized: true, recalculation_method: "manual_input" }, false, "recalculated", "purple"],
    // An override beats a creator.
    [
      { is_finalized: true, override_reason: "x", created_by: "a@b.mx" },
      false,
      "recalculated",
      "purple",
    ],
    [{ is_finalized: true, created_by: "admin@test.mx" }, false, "partially_saved", "yellow"],
    [{ is_finalized: true }, false, "saved", "green"],
    [{ is_finalized: true, is_estimation: true }, false, "saved", "red"],
    [{ is_finalized: true, is_estimation: true }, true, "saved", "red"],
    [{ is_estimation: true }, true, "estimate", "blue"],
    [{ is_estimation: true }, false, "estimate", "red"],
    [{}, true, "not_saved", "grey"],
    // A draft is never "recalculated" or "partially saved" in the lists.
    [{ override_reason: "x", created_by: "a@b.mx" }, false, "not_saved", "grey"],
  ];
  for (const [over, current, key, colour] of cases) {
    assert.deepEqual(listStatus(flags(over), current), { key, colour }, JSON.stringify(over));
  }
});

Deno.test("report status: future, none, recalculated when edited over 5 s after creation, else as in the lists", () => {
  const at = (ms: number) => new Date(Date.parse("2026-12-03T15:00:00.000Z") + ms).toISOString();
  const past = { future: false, current: false };
  assert.deepEqual(reportStatus(bill(), { future: true, current: false }), {
    key: "future",
    colour: "grey",
  });
  assert.deepEqual(reportStatus(null, past), { key: "not_saved", colour: "grey" });
  assert.deepEqual(reportStatus(bill({ updated_at: at(5001) }), past), {
    key: "recalculated",
    colour: "purple",
  });
  assert.deepEqual(reportStatus(bill({ updated_at: at(5000) }), past), {
    key: "saved",
    colour: "green",
  });
  // Paid a day later: a payment change, not an edit; Saved as in the lists.
  const paid = bill({ updated_at: at(86_400_000) });
  paid.payment_history = [{
    from: "pending",
    to: "paid",
    at: at(86_400_000),
    cause: "processor_event",
    by: null,
  }];
  assert.deepEqual(reportStatus(paid, past), { key: "saved", colour: "green" });
  assert.deepEqual(reportStatus(paid, past), listStatus(paid, false));
  // In the report an override reason makes even a draft "recalculated".
  assert.deepEqual(reportStatus(bill({ is_finalized: false, override_reason: "x" }), past), {
    key: "recalculated",
    colour: "purple",
  });
  assert.deepEqual(
    reportStatus(bill({ is_finalized: false, is_estimation: true }), {
      future: false,
      current: true,
    }),
    { key: "estimate", colour: "blue" },
  );
  assert.deepEqual(reportStatus(bill({ created_by: "a@b.mx" }), past), {
    key: "partially_saved",
    colour: "yellow",
  });
});

Deno.test("a station is overdue if any finalized bill is, due if any is unpaid, paid if all are, other with none", () => {
  const s = (...list: [boolean, PaymentStatus][]) =>
    stationPaymentStatus(
      list.map(([is_finalized, payment_status]) => ({ is_finalized, payment_status })),
    );
  assert.equal(s(), "other");
  assert.equal(s([false, "pending"], [false, "overdue"]), "other", "drafts do not count");
  assert.equal(s([true, "paid"], [true, "paid"]), "paid");
  assert.equal(s([true, "paid"], [false, "pending"]), "paid", "a draft does not make it due");
  assert.equal(s([true, "paid"], [true, "pending"]), "due");
  assert.equal(s([true, "paid"], [true, "awaiting_spei_transfer"]), "due");
  assert.equal(s([true, "reference_expired"]), "due");
  assert.equal(s([true, "failed"]), "due");
  assert.equal(s([true, "pending"], [true, "overdue"], [true, "paid"]), "overdue");
});

Deno.test("a bill may be deleted unless paid or waiting on an SPEI reference that has not expired", () => {
  const now = Date.parse("2026-12-10T12:00:00.000Z");
  assert.equal(deleteBlocker(bill({ payment_status: "paid" }), now), "paid");
  assert.equal(
    deleteBlocker(
      bill({
        payment_status: "awaiting_spei_transfer",
        spei_expiry_date: "2026-12-12T12:00:00.000Z",
      }),
      now,
    ),
    "live_reference",
  );
  assert.equal(
    deleteBlocker(
      bill({
        payment_status: "awaiting_spei_transfer",
        spei_expiry_date: "2026-12-09T12:00:00.000Z",
      }),
      now,
    ),
    null,
    "an expired reference does not block",
  );
  for (const s of ["pending", "overdue", "reference_expired", "failed"] as const) {
    assert.equal(deleteBlocker(bill({ payment_status: s }), now), null, s);
  }
  // A reference whose expiry is in the past but the state still says waiting is not live; a
  // reference expiring exactly now is not live either.
  assert.equal(
    deleteBlocker(
      bill({
        payment_status: "awaiting_spei_transfer",
        spei_expiry_date: new Date(now).toISOString(),
      }),
      now,
    ),
    null,
  );
});

Deno.test("a bill is past due the day after its due date, only when it can still become overdue", () => {
  const b = bill(); // due 2026-12-17
  assert.equal(isPastDue(b, "2026-12-17"), false, "the due date itself is still in time");
  assert.equal(isPastDue(b, "2026-12-18"), true);
  assert.equal(isPastDue(bill({ payment_status: "reference_expired" }), "2026-12-18"), true);
  assert.equal(isPastDue(bill({ payment_status: "failed" }), "2026-12-18"), true);
  assert.equal(isPastDue(bill({ payment_status: "awaiting_spei_transfer" }), "2026-12-18"), false);
  assert.equal(isPastDue(bill({ payment_status: "overdue" }), "2026-12-18"), false);
  assert.equal(isPastDue(bill({ payment_status: "paid" }), "2026-12-18"), false);
  assert.equal(
    isPastDue(bill({ is_finalized: false, payment_due_date: null }), "2027-06-01"),
    false,
    "a draft is never past due",
  );
});

Deno.test("finalizing makes a bill pending and due in 10 business days, a total of 0 too: only a payment settles a bill", () => {
  const on = { year: 2026, month: 11, day: 13 };
  for (const total of [0, 43369]) {
    const fin = { ...finalization(AT, on), total_cost: total, late_fee: 0 };
    assert.equal(fin.is_finalized, true);
    assert.equal(fin.finalized_at, AT);
    assert.equal(fin.payment_status, "pending");
    assert.equal(fin.payment_date, null);
    assert.equal(fin.payment_due_date, "2026-11-30");
    assert.equal(fin.payment_due_date, dueDateAfter(on));
    assert.deepEqual(fin.change, {
      from: null,
      to: "pending",
      at: AT,
      cause: "finalized",
      by: null,
    });
    assert.equal(nothingDue(fin), total === 0, "a total of 0 shows nothing due");
    assert.equal(isPastDue(fin, "2027-01-01"), total > 0, "nothing due is never overdue");
  }
});

Deno.test("buildUnitBill makes a draft without a due date, or a finalized bill with its first history entry", () => {
  const zone = { ...defaultZone("Z"), id: 1, price_low: 1, base_tariff: 0, tax_percentage: 0 };
  const input = {
    unit_id: "unit_1",
    station_id: 3,
    zone_id: 1,
    period: { text: "2026-11", kind: "monthly" as const },
    tenant_id: 11,
    sensor_serial: "SIM-A",
    zone_snapshot: null,
    author: null,
    estimation: null,
  };
  const draft = buildUnitBill({ ...input, finalize: null }, computeUnitBill(zone, 100));
  assert.equal(draft.is_finalized, false);
  assert.equal(draft.finalized_at, null);
  assert.equal(draft.payment_due_date, null);
  assert.equal(draft.payment_status, "pending");
  assert.deepEqual(draft.payment_history, []);
  assert.equal(draft.total_cost, 10000);
  assert.equal(draft.billing_month, "2026-11");
  assert.equal(draft.billing_period, null);

  const finalize = { at: AT, on: { year: 2026, month: 12, day: 18 } };
  const due = buildUnitBill({ ...input, finalize }, computeUnitBill(zone, 100));
  assert.equal(due.is_finalized, true);
  assert.equal(due.payment_status, "pending");
  assert.equal(due.payment_due_date, "2027-01-05");
  assert.deepEqual(due.payment_history.map((h) => h.cause), ["finalized"]);

  const nothing = buildUnitBill({ ...input, finalize }, computeUnitBill(zone, 0));
  assert.equal(nothing.total_cost, 0);
  assert.equal(nothing.payment_status, "pending", "nothing due is not a payment");
  assert.equal(nothing.payment_date, null);
  assert.equal(nothingDue(nothing), true);
  assert.deepEqual(nothing.payment_history.map((h) => [h.to, h.cause]), [["pending", "finalized"]]);

  const bimonthly = buildUnitBill(
    { ...input, period: { text: "2026-11-12", kind: "bimonthly" }, finalize: null },
    computeUnitBill(zone, 100),
  );
  assert.equal(bimonthly.billing_month, null);
  assert.equal(bimonthly.billing_period, "2026-11-12");
});
