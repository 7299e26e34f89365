/**
 * Browser side of FormRestore (plain script): finds the page's form that posts to `action`
 * (else the page's only post form) and gives each named field its kept value, in order for
 * repeated names; check boxes and radios are ticked when their value was posted. Hidden,
 * password and file fields are left as the page drew them.
 */
import type { FormRestoreProps } from "./FormRestore.tsx";

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The form posting to `action`, else the one post form of the page. */
function findForm(action: string): HTMLFormElement | null {
  const forms = [...document.querySelectorAll<HTMLFormElement>("form")]
    .filter((f) => f.method.toLowerCase() === "post");
  const same = forms.find((f) => new URL(f.action, location.href).pathname === action);
  return same ?? (forms.length === 1 ? forms[0] : null);
}

/** Fills the form in. */
export function mount(_root: HTMLElement, { action, fields }: FormRestoreProps) {
  const form = findForm(action);
  if (!form) return;
  const byName = new Map<string, string[]>();
  for (const [k, v] of fields) byName.set(k, [...byName.get(k) ?? [], v]);
  for (const [name, values] of byName) {
    const els = [...form.elements].filter((e): e is Field =>
      (e instanceof HTMLInputElement || e instanceof HTMLSelectElement ||
        e instanceof HTMLTextAreaElement) && e.name === name
    );
    let i = 0;
    for (const el of els) {
      if (el instanceof HTMLInputElement && ["hidden", "password", "file"].includes(el.type)) {
        continue;
      }
      if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) {
        el.checked = values.includes(el.value);
      } else if (el instanceof HTMLSelectElement && el.multiple) {
        for (const o of el.options) o.selected = values.includes(o.value);
      } else if (i < values.length) {
        el.value = values[i++];
      } else continue;
      el.dispatchEvent(new Event("input", { bubbles: true }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
}
