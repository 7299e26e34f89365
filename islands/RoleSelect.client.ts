/**
 * Browser side of RoleSelect (plain script): the customer fields show only while the role
 * is customer (their "customers only" hint goes), and changing the role of a stored account
 * shows which assignments reset.
 */
import type { RoleSelectProps } from "./RoleSelect.tsx";
import { roleChangeWarning } from "./role_change.ts";

/** Follows the role select in `root`. */
export function mount(root: HTMLElement, { original, texts }: RoleSelectProps) {
  const select = root.querySelector<HTMLSelectElement>("select#role");
  const fieldset = root.querySelector<HTMLElement>("[data-customer]");
  const live = root.querySelector<HTMLElement>("[data-warning]");
  if (!select || !fieldset || !live) return;
  fieldset.querySelector(".hint")?.remove();
  const follow = () => {
    fieldset.hidden = select.value !== "customer";
    const warning = roleChangeWarning(original, select.value);
    const shown = live.querySelector<HTMLElement>("[data-testid=role-warning]");
    if (!warning) return shown?.remove();
    const p = shown ?? document.createElement("p");
    p.className = "alert alert-warning";
    p.dataset.testid = "role-warning";
    p.textContent = texts[warning];
    if (!shown) live.append(p);
  };
  select.addEventListener("change", follow);
  follow();
}
