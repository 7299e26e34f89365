/**
 * Fills a form in again with the values of a post that arrived after the session ended (see
 * `services/kept_forms.ts`). Renders nothing visible; its browser side is the plain script
 * `FormRestore.client.ts`.
 */

/** Props: the path the form posted to and its fields in order. */
export interface FormRestoreProps {
  action: string;
  fields: [string, string][];
}

/** The marker the script starts from. */
export default function FormRestore(_props: FormRestoreProps) {
  return <span hidden />;
}
