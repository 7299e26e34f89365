import assert from "node:assert/strict";
import { defaultZone } from "./zone.ts";
import { computeCustomerBill } from "./customer_bill.ts";

const zone = { ...defaultZone("z"), customer_commission: 10, customer_fee: 50, customer_tax: 16 };
const units = [
  { energy_consumption: 200, energy_cost: 37387, compensation_cost: 0, total_cost: 43369 },
  { energy_consumption: 50, energy_cost: 9000, compensation_cost: 1000, total_cost: 11600 },
  { energy_consumption: 0, energy_cost: 0, compensation_cost: 0, total_cost: 0 },
];

Deno.test("computeCustomerBill() charges commission on energy plus compensation, fee per unit, tax on both", () => {
  const bill = computeCustomerBill(zone, units);
  assert.equal(bill.calculation_details.commission_base, 47387);
  assert.equal(bill.commission_amount, 4739); // 473.87 → 4738.7 cents → 4739
  assert.equal(bill.fee_amount, 15000);
  assert.equal(bill.tax_amount, 3158); // 16 % of 197.39 = 31.5824
  assert.equal(bill.total_amount, 4739 + 15000 + 3158);
  assert.equal(bill.energy_consumption, 250);
  assert.equal(bill.calculation_details.unit_count, 3);
  assert.equal(bill.calculation_details.fee_per_unit, 5000);
});

Deno.test("computeCustomerBill() provider profit is commission plus fees; customer profit is payments minus all", () => {
  const bill = computeCustomerBill(zone, units);
  assert.equal(bill.provider_profit, 4739 + 15000);
  assert.equal(bill.tenant_payments, 43369 + 11600);
  assert.equal(bill.customer_profit, 43369 + 11600 - 4739 - 15000 - 3158);
  const paid = computeCustomerBill(zone, units, 10000);
  assert.equal(paid.customer_profit, 10000 - 22897);
});

Deno.test("computeCustomerBill() with no units owes nothing", () => {
  const bill = computeCustomerBill(zone, []);
  assert.equal(bill.total_amount, 0);
  assert.equal(bill.customer_profit, 0);
});

Deno.test("computeCustomerBill() rejects amounts that are not whole cents", () => {
  assert.throws(
    () => computeCustomerBill(zone, [{ ...units[0], energy_cost: 1.5 }]),
    /energy_cost must be whole cents ≥ 0, saw 1.5/,
  );
  assert.throws(() => computeCustomerBill(zone, units, -1), RangeError);
});
