import assert from "node:assert/strict";
import { fiscalSchema, personTypeOf, regimesFor } from "./fiscal.ts";

const ok = { rfc: "lopa800101ab1", legal_name: " ANA LOPEZ ", tax_system: "612", zip: "64000" };

Deno.test("fiscal data: the RFC in capitals, use G03 by default", () => {
  assert.deepEqual(fiscalSchema.parse(ok), {
    rfc: "LOPA800101AB1",
    legal_name: "ANA LOPEZ",
    tax_system: "612",
    zip: "64000",
    use: "G03",
  });
  assert.equal(personTypeOf("ENO8910131AA"), "moral");
  assert.ok(regimesFor("moral").includes("601") && !regimesFor("moral").includes("612"));
});

Deno.test("fiscal data: each refusal names its field and reason", () => {
  const cases: [Record<string, string>, string, string][] = [
    [{ rfc: "LOPA80010AB1" }, "rfc", "fiscal.errors.rfc_pattern"],
    [{ rfc: "LOPA801301AB1" }, "rfc", "fiscal.errors.rfc_pattern"],
    [{ rfc: "XAXX010101000" }, "rfc", "fiscal.errors.rfc_generic"],
    [{ rfc: "XEXX010101000" }, "rfc", "fiscal.errors.rfc_generic"],
    [{ tax_system: "601" }, "tax_system", "fiscal.errors.regime_person"],
    [{ tax_system: "999" }, "tax_system", "fiscal.errors.regime"],
    [{ tax_system: "605" }, "use", "fiscal.errors.use_regime"],
    [{ use: "P01" }, "use", "fiscal.errors.use"],
    [{ zip: "6400" }, "zip", "fiscal.errors.zip"],
    [{ legal_name: "  " }, "legal_name", "validation.required"],
  ];
  for (const [change, field, message] of cases) {
    const res = fiscalSchema.safeParse({ ...ok, ...change });
    assert.ok(!res.success, JSON.stringify(change));
    const issue = res.error.issues[0];
    assert.deepEqual(
      [String(issue.path[0]), issue.message],
      [field, message],
      JSON.stringify(change),
    );
  }
  // A salaried person (605) takes S01.
  assert.equal(fiscalSchema.parse({ ...ok, tax_system: "605", use: "S01" }).use, "S01");
});
