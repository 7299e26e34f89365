/**
 * Bills API (spec 001 section 7; issue 9): the billing run, bill lists, deletes, recalculation
 * and payments recorded by an admin. Money in currency units (`_bill_json.ts`); lists answer
 * `{bills}`. Refusals of the services become 4xx answers in `routes/_refusal.tsx`.
 *
 * - `POST /unified-billing/process` and `/api/unified-billing/process` (admin): body
 *   `{period, zone_id}` → what the run did, unit and station bills counted apart.
 * - `GET /api/bills`, `/api/bimester-bills` (monthly / bimonthly unit bills; query station_id,
 *   billing_month or billing_period, optional unit_id) → `{bills}`: admin all, a customer its
 *   stations', a tenant its own finalized bills with a total above 0.
 * - `GET /api/customer-bills`, `/api/bimester-customer-bills` → `{bills}`: admin all, a
 *   customer its stations'; tenants 403.
 * - `DELETE /bills/{id}`, `/bimester-bills/{id}`, `/customer-bills/{id}`,
 *   `/bimester-customer-bills/{id}` and their `/api` variants (admin): a paid bill or one with a
 *   live SPEI reference stays (409).
 * - `PUT /api/bills/{id}`, `/api/bimester-bills/{id}` (admin): recalculation → the bill.
 * - `POST /api/bills/{id}/payments`, `/api/bimester-bills/{id}/payments` (admin): a payment
 *   received outside the processor `{method: cash|transfer, payment_date, reference?, note?}` →
 *   the paid bill.
 */
import { acting } from "../_audit.ts";
import { Hono } from "hono";
import type { Context, MiddlewareHandler } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { pathId } from "../_http.ts";
import { type JsonIn, jsonInput, queryOf } from "../_validate.ts";
import { requireApiRole } from "../_session.ts";
import { apiPage, listJson } from "./_list.ts";
import type { PeriodKind } from "../../core/periods.ts";
import {
  customerBillsFor,
  deleteCustomerBillById,
  deleteUnitBillById,
  recalculateBill,
  recordPayment,
  runBilling,
  unitBillsFor,
} from "../../services/billing/mod.ts";
import {
  BILL_QUERY_ERRORS,
  billingRunSchema,
  billListQuerySchema,
  paymentRecordSchema,
  RECALC_INPUT_ERRORS,
  recalcSchema,
} from "../../core/billing_input.ts";
import { customerBillJson, unitBillJson } from "./_bill_json.ts";

/** Reads a bill list's query for bills of `kind`; refuses a malformed one, changing nothing. */
function billQuery(c: Context<UserEnv>, kind: PeriodKind) {
  const filter = queryOf(c, billListQuerySchema, {
    message: BILL_QUERY_ERRORS.invalidQuery,
    fields: "paths",
  });
  return { kind, ...filter };
}

/** The bill id of the path; a 404 refusal when it is not one. */
const billId = (c: Context<UserEnv>) => pathId(c, "billing.errors.bill_not_found");

/**
 * The billing run and the bill deletes, which the spec names both at the root and under /api:
 * registered on `app` relative to its prefix.
 */
function runAndDeleteRoutes(app: Hono<UserEnv>, deps: Deps) {
  const admin = requireApiRole("admin");
  app.post(
    "/unified-billing/process",
    admin,
    jsonInput(billingRunSchema, { fields: "first" }),
    async (c) => {
      const { period, zone_id } = c.req.valid("json");
      return c.json(
        await runBilling(acting(c, deps), zone_id, period, { author: String(c.var.user.id) }),
      );
    },
  );

  const remove =
    (del: (deps: Deps, id: number) => Promise<void>) => async (c: Context<UserEnv>) => {
      const id = billId(c);
      await del(acting(c, deps), id);
      return c.json({ message: c.var.t("billing.messages.bill_deleted"), id });
    };
  app.delete("/bills/:id", admin, remove(deleteUnitBillById));
  app.delete("/bimester-bills/:id", admin, remove(deleteUnitBillById));
  app.delete("/customer-bills/:id", admin, remove(deleteCustomerBillById));
  app.delete("/bimester-customer-bills/:id", admin, remove(deleteCustomerBillById));
}

/** The run and the deletes at the spec's root paths, mounted at `/`. */
export function billingRootRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  runAndDeleteRoutes(app, deps);
  return app;
}

/** Routes of the billing run and the bill lists, mounted at /api. */
export function billingApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  const admin = requireApiRole("admin");
  runAndDeleteRoutes(app, deps);

  const unitList = (kind: PeriodKind) => async (c: Context<UserEnv>) => {
    apiPage(c); // a bad limit or cursor is refused before anything is read (or built)
    const bills = await unitBillsFor(deps, c.var.user, billQuery(c, kind));
    return listJson(c, "bills", bills, (b) => b.id, unitBillJson);
  };
  app.get("/bills", requireApiRole("admin", "customer", "user"), unitList("monthly"));
  app.get("/bimester-bills", requireApiRole("admin", "customer", "user"), unitList("bimonthly"));

  const customerList = (kind: PeriodKind) => async (c: Context<UserEnv>) => {
    apiPage(c);
    const bills = await customerBillsFor(deps, c.var.user, billQuery(c, kind));
    return listJson(c, "bills", bills, (b) => b.id, customerBillJson);
  };
  app.get("/customer-bills", requireApiRole("admin", "customer"), customerList("monthly"));
  app.get(
    "/bimester-customer-bills",
    requireApiRole("admin", "customer"),
    customerList("bimonthly"),
  );

  // The path's bill id is checked before the body: a bad one is not found whatever is sent.
  const knownId: MiddlewareHandler<UserEnv> = async (c, next) => {
    billId(c);
    await next();
  };
  const recalcInput = jsonInput(recalcSchema, { notObject: RECALC_INPUT_ERRORS.invalidBody });
  const recalculate = (kind: PeriodKind) =>
    [
      knownId,
      recalcInput,
      async (c: Context<UserEnv, string, JsonIn<typeof recalcSchema>>) => {
        const bill = await recalculateBill(
          acting(c, deps),
          billId(c),
          kind,
          c.req.valid("json"),
          c.var.user,
        );
        return c.json(unitBillJson(bill));
      },
    ] as const;
  app.put("/bills/:id", admin, ...recalculate("monthly"));
  app.put("/bimester-bills/:id", admin, ...recalculate("bimonthly"));

  const pay = async (c: Context<UserEnv, string, JsonIn<typeof paymentRecordSchema>>) => {
    const record = c.req.valid("json");
    return c.json(
      unitBillJson(await recordPayment(acting(c, deps), billId(c), record, c.var.user)),
    );
  };
  const paymentInput = jsonInput(paymentRecordSchema);
  app.post("/bills/:id/payments", admin, knownId, paymentInput, pay);
  app.post("/bimester-bills/:id/payments", admin, knownId, paymentInput, pay);
  return app;
}
