/**
 * The responsive list (components/kit/ResponsiveList.tsx) in a browser: on a phone each row
 * of the one table is a card whose cells show their column's label, with no horizontal
 * overflow; on a desktop it is a plain table. axe-core finds no serious or critical
 * violation in either layout.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { seedDemo } from "../../services/demo.ts";
import { findBySerial } from "../../db/devices.ts";
import { listZones } from "../../db/zones.ts";
import { DEMO_STATION_SERIAL, DEMO_ZONE_NAME } from "../../services/demo_devices.ts";
import { addAccount, addCustomerCode, axeSerious, signedInPage, test } from "./_browser.ts";

/** The list pages, with the demo station and zone. */
const pages = (station: number, zone: number): string[] => [
  "/admin/devices",
  `/admin/devices/station/${station}/data`,
  "/admin/users?tab=tenants",
  "/admin/users?tab=customers",
  "/admin/users?tab=access-codes",
  "/admin/pricing",
  `/admin/zones/${zone}`,
];

/** How the page's lists are laid out. */
interface Layout {
  lists: number;
  overflow: boolean;
  rowDisplay: string[];
  headHidden: boolean[];
  /** Per labelled cell: the label shown before it and its column's header text. */
  labels: { shown: string; header: string }[];
}

function layout(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const tables = [...document.querySelectorAll<HTMLTableElement>("table.rlist")];
    const labels: { shown: string; header: string }[] = [];
    for (const table of tables) {
      const heads = [...table.querySelectorAll("thead th")].map((th) => th.textContent ?? "");
      for (const tr of table.querySelectorAll("tbody tr")) {
        [...tr.children].forEach((td, i) => {
          if (!(td as HTMLElement).dataset.label) return;
          const shown = getComputedStyle(td, "::before").content;
          labels.push({ shown: shown === "none" ? "" : JSON.parse(shown), header: heads[i] });
        });
      }
    }
    return {
      lists: tables.length,
      overflow: document.documentElement.scrollWidth > innerWidth,
      rowDisplay: tables.map((t) => getComputedStyle(t.querySelector("tbody tr")!).display),
      headHidden: tables.map((t) => t.querySelector("thead")!.getBoundingClientRect().width <= 1),
      labels,
    };
  });
}

/** The serious and critical axe violations of the page, each as its rule and first node. */
async function axeFindings(page: Page): Promise<string[]> {
  return (await axeSerious(page)).map((v) => `${v.id}: ${v.nodes[0]?.html.slice(0, 120)}`);
}

test("each list is one table: cards with labelled cells on a phone, a table on a desktop", async ({ portal, browser }) => {
  const admin = await addAccount(portal, "admin");
  await seedDemo(portal.deps);
  const station = await findBySerial(portal.deps.kv, DEMO_STATION_SERIAL);
  const zone = (await listZones(portal.deps.kv)).find((z) => z.name === DEMO_ZONE_NAME);
  assert.ok(station && zone, "the demo station and zone");
  const paths: string[] = pages(station.id, zone.id);
  await addCustomerCode(portal, "a note long enough to wrap on a phone screen, with words");
  const page = await signedInPage(browser, portal, admin);
  const problems: string[] = [];
  for (const [width, height] of [[360, 740], [1280, 800]]) {
    await page.setViewport({ width, height });
    const phone = width < 760;
    for (const path of paths) {
      const res = await page.goto(`${portal.url}${path}`, { waitUntil: "load" });
      assert.equal(res?.status(), 200, path);
      const l = await layout(page);
      const at = `${path} at ${width}px`;
      assert.ok(l.lists >= 1, `${at}: a responsive list`);
      assert.equal(l.overflow, false, `${at}: no horizontal overflow`);
      assert.deepEqual(l.rowDisplay, l.rowDisplay.map(() => phone ? "flex" : "table-row"), at);
      assert.deepEqual(l.headHidden, l.headHidden.map(() => phone), `${at}: column heads`);
      assert.ok(l.labels.length > 0, `${at}: labelled cells`);
      for (const { shown, header } of l.labels) {
        assert.equal(shown, phone ? header : "", `${at}: the cell's label`);
      }
      for (const v of await axeFindings(page)) problems.push(`${at}: ${v}`);
    }
  }
  assert.deepEqual(problems, [], "no serious or critical accessibility violation");
});
