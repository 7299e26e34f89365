/**
 * Browser side of GenerateReference (plain script): once the form is sent, the button shows
 * a spinner and the busy label and stays disabled (`aria-busy`).
 */
import type { GenerateReferenceProps } from "./GenerateReference.tsx";

/** Marks the button busy when the form in `root` is submitted. */
export function mount(root: HTMLElement, { busyLabel }: GenerateReferenceProps) {
  const form = root.querySelector("form");
  const button = form?.querySelector("button");
  if (!form || !button) return;
  form.addEventListener("submit", () => {
    // Disabled after this turn, so that the button's own submission still goes out.
    setTimeout(() => {
      button.disabled = true;
      button.setAttribute("aria-busy", "true");
      const spinner = document.createElement("span");
      spinner.className = "spinner";
      spinner.setAttribute("aria-hidden", "true");
      button.replaceChildren(spinner, busyLabel);
    });
  });
}
