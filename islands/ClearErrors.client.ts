/**
 * Browser side of ClearErrors (plain script): on the first edit of a field marked
 * `aria-invalid`, removes the mark and hides its `#<id>-error` message.
 */

/** Listens to edits in the form around `root`. */
export function mount(root: HTMLElement) {
  const form = root.closest("form");
  if (!form) return;
  const onEdit = (e: Event) => {
    const field = e.target as HTMLElement;
    if (
      !(field instanceof HTMLInputElement || field instanceof HTMLSelectElement ||
        field instanceof HTMLTextAreaElement)
    ) return;
    if (field.getAttribute("aria-invalid") !== "true") return;
    field.removeAttribute("aria-invalid");
    const msg = field.id ? document.getElementById(`${field.id}-error`) : null;
    if (msg) msg.hidden = true;
  };
  form.addEventListener("input", onEdit);
  form.addEventListener("change", onEdit);
}
