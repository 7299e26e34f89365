/**
 * Browser side of CopyButton (plain script): a click copies the text and shows the copied
 * indicator (also announced) for 2 s.
 */
import type { CopyButtonProps } from "./CopyButton.tsx";

/** How long the copied indicator stays, in milliseconds (spec 000 section 9). */
const COPIED_MS = 2000;

/** Copies with the Clipboard API, falling back to a selected textarea and execCommand. */
async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the older way
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/** Makes the server-rendered button in `root` copy `text`. */
export function mount(root: HTMLElement, { text, label, copiedLabel }: CopyButtonProps) {
  const button = root.querySelector("button");
  const shown = root.querySelector("[data-label]");
  const live = root.querySelector("[aria-live]");
  if (!button || !shown || !live) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const show = (copied: boolean) => {
    shown.textContent = copied ? copiedLabel : label;
    live.textContent = copied ? copiedLabel : "";
  };
  button.addEventListener("click", async () => {
    if (!text || !(await copyText(text))) return;
    show(true);
    clearTimeout(timer);
    timer = setTimeout(() => show(false), COPIED_MS);
  });
}
