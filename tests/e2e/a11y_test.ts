/**
 * Accessibility: axe-core finds no serious or critical violation on the pages built so
 * far, at desktop width, with demo data in the store (accounts, codes, notifications), and
 * with the dialogs that islands open (terms, notifications panel).
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { seedDemo } from "../../services/demo.ts";
import {
  addAccount,
  addCustomerCode,
  axeSerious,
  type AxeViolation,
  freshPage,
  signIn,
  test,
} from "./_browser.ts";

/** A page to check: who looks at it, and optionally what to do before checking. */
interface Check {
  path: string;
  as: "anonymous" | "admin" | "customer" | "user";
  label?: string;
  before?: (page: Page) => Promise<void>;
}

/** Opens a dialog: once `ready` (the island) is there, clicks `button` and waits for `shown`. */
const opening = (ready: string, button: string, shown: string) => async (page: Page) => {
  await page.waitForSelector(ready);
  await page.click(button);
  await page.waitForSelector(shown, { visible: true });
};

const CHECKS: Check[] = [
  { path: "/login", as: "anonymous" },
  { path: "/register", as: "anonymous" },
  {
    path: "/register",
    as: "anonymous",
    label: "/register with the terms dialog open",
    before: opening("[data-island=TermsConsent] [role=tablist]", "#terms", "#terms-dialog.open"),
  },
  { path: "/admin", as: "admin" },
  {
    path: "/admin",
    as: "admin",
    label: "/admin with the notifications panel open",
    before: opening(
      "[data-island=NotificationBell][data-ready]",
      "[data-testid=notification-bell]",
      ".notif-panel",
    ),
  },
  { path: "/admin#contact", as: "admin", label: "/admin with the contact dialog open" },
  { path: "/admin/settings", as: "admin" },
  { path: "/admin/users", as: "admin" },
  { path: "/admin/users?tab=customers", as: "admin" },
  { path: "/admin/users?tab=admins", as: "admin" },
  { path: "/admin/users?tab=access-codes", as: "admin" },
  { path: "/admin/users/accounts-form/customer", as: "admin" },
  { path: "/admin/access-codes/create", as: "admin" },
  { path: "/notifications", as: "admin" },
  { path: "/customer", as: "customer" },
  { path: "/notifications", as: "customer" },
  { path: "/customer/settings", as: "customer" },
  { path: "/customer/finances", as: "customer" },
  { path: "/user", as: "user" },
  { path: "/user/settings", as: "user" },
  { path: "/user/consumption", as: "user" },
  { path: "/user/pricing", as: "user" },
  { path: "/user/billing", as: "user" },
];

/** A readable account of violations. */
function describe(label: string, vs: AxeViolation[]): string {
  return vs.map((v) =>
    `${label}: [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n` +
    v.nodes.slice(0, 5).map((n) =>
      `    ${JSON.stringify(n.target)}\n      ${n.html.slice(0, 160)}\n      ${
        (n.failureSummary ?? "").replace(/\n/g, " ").slice(0, 300)
      }`
    ).join("\n")
  ).join("\n");
}

test("axe-core finds no serious or critical violations on the portal's pages", async ({ portal, browser }) => {
  await seedDemo(portal.deps);
  await addCustomerCode(portal, "a11y");
  const admin = await addAccount(portal, "admin", { full_name: "Ana Admin" });
  const pages: Record<string, Page> = {};
  const pageFor = async (as: Check["as"]) => {
    if (pages[as]) return pages[as];
    const page = await freshPage(browser);
    await page.setViewport({ width: 1280, height: 800 });
    if (as === "admin") await signIn(page, portal, admin.email, admin.password);
    if (as === "customer") await signIn(page, portal, "cliente@demo.mx", "demo1234");
    if (as === "user") await signIn(page, portal, "inquilino@demo.mx", "demo1234");
    return pages[as] = page;
  };

  const problems: string[] = [];
  for (const check of CHECKS) {
    const label = `${check.label ?? check.path} (${check.as})`;
    const page = await pageFor(check.as);
    // A fragment-only change would not reload: go through a blank page.
    await page.goto("about:blank");
    const res = await page.goto(`${portal.url}${check.path}`, { waitUntil: "load" });
    const landed = new URL(page.url());
    if (res?.status() !== 200 || landed.pathname !== check.path.split(/[?#]/)[0]) {
      problems.push(`${label}: expected the page, got ${res?.status()} at ${landed.pathname}`);
      continue;
    }
    await check.before?.(page);
    const vs = await axeSerious(page);
    if (vs.length) problems.push(describe(label, vs));
  }
  assert.equal(problems.length, 0, `accessibility problems:\n${problems.join("\n")}`);

  // Control: the check does report a serious problem when there is one.
  const control = await pageFor("anonymous");
  await control.setContent(
    `<html lang="en"><title>x</title><main><img src="x.png"></main></html>`,
  );
  const found = await axeSerious(control);
  assert.ok(found.some((v) => v.id === "image-alt"), "axe reports an image without alt text");
});
