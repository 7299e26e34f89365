/**
 * Clears a field's server-rendered error as soon as the field is edited (spec: "Errors
 * clear on edit"). Placed inside a form; renders nothing visible. Its browser side is the
 * plain script `ClearErrors.client.ts`.
 */

/** Props: none are needed; the island works on the form it is placed in. */
type ClearErrorsProps = Record<string, never>;

/** The marker the script finds its form from. */
export default function ClearErrors(_props: ClearErrorsProps) {
  return <span hidden />;
}
