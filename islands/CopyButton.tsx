/**
 * A button that copies a text (an access code) to the clipboard and shows a copied
 * indicator for 2 s. Server-rendered as a plain button, harmless without JavaScript; the
 * text can be shown next to it so that it can still be selected by hand.
 */
import { useEffect, useRef, useState } from "react";

/** How long the copied indicator stays, in milliseconds (spec 000 section 9). */
export const COPIED_MS = 2000;

/** Props of the copy button. */
export interface CopyButtonProps {
  /** What to copy. */
  text: string;
  /** The button's label, e.g. "Copy". */
  label: string;
  /** The indicator shown after copying, e.g. "Copied!". */
  copiedLabel: string;
  /** Also render the text itself (selectable) before the button. */
  showText?: boolean;
}

/** Copies with the Clipboard API, falling back to a selected textarea and execCommand. */
export async function copyText(text: string): Promise<boolean> {
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

/** The copy button. */
export default function CopyButton({ text, label, copiedLabel, showText }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onClick = async () => {
    if (!text || !(await copyText(text))) return;
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS) as unknown as number;
  };
  return (
    <span className="copy-button">
      {showText && <code className="code">{text}</code>}
      <button
        type="button"
        className="btn btn-sm btn-secondary"
        onClick={onClick}
        disabled={!text}
        data-testid="copy-button"
      >
        {copied ? copiedLabel : label}
        <span className="visually-hidden">{text}</span>
      </button>
      <span className="visually-hidden" aria-live="polite">{copied ? copiedLabel : ""}</span>
    </span>
  );
}
