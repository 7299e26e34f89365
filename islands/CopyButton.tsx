/**
 * A button that copies a text (an access code) to the clipboard and shows a copied
 * indicator for 2 s. Server-rendered as a plain button, harmless without JavaScript; the
 * text can be shown next to it so that it can still be selected by hand. The browser side
 * is the plain script `CopyButton.client.ts`.
 */

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

/** The copy button as the server renders it. */
export default function CopyButton({ text, label, showText }: CopyButtonProps) {
  return (
    <span className="copy-button">
      {showText && <code className="code">{text}</code>}
      <button
        type="button"
        className="btn btn-sm btn-secondary"
        disabled={!text}
        data-testid="copy-button"
      >
        <span data-label>{label}</span>
        <span className="visually-hidden">{text}</span>
      </button>
      <span className="visually-hidden" aria-live="polite" />
    </span>
  );
}
