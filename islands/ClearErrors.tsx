/**
 * Clears a field's server-rendered error as soon as the field is edited (spec: "Errors
 * clear on edit"). Placed inside a form; renders nothing visible.
 */
import { useEffect, useRef } from "react";

/** Props: none are needed; the island works on the form it is placed in. */
export type ClearErrorsProps = Record<string, never>;

/** Removes `aria-invalid` and hides the `#<id>-error` message of an edited field. */
export default function ClearErrors(_props: ClearErrorsProps) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const form = ref.current?.closest("form");
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
    return () => {
      form.removeEventListener("input", onEdit);
      form.removeEventListener("change", onEdit);
    };
  }, []);
  return <span ref={ref} hidden />;
}
