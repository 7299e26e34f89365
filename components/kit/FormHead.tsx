/** The head of a form page: its title, the subtitle under it and a link back. */

/** Props of {@link FormHead}. */
export interface FormHeadProps {
  title: string;
  subtitle: string;
  /** Where the back link leads, and its text. */
  back: string;
  backLabel: string;
}

/** `<div class="page-head">` with the `<h1>`, the subtitle and the back link. */
export function FormHead({ title, subtitle, back, backLabel }: FormHeadProps) {
  return (
    <div className="page-head">
      <div>
        <h1>{title}</h1>
        <p className="muted" style={{ margin: 0 }}>{subtitle}</p>
      </div>
      <div className="page-actions">
        <a className="btn btn-secondary" href={back}>{backLabel}</a>
      </div>
    </div>
  );
}
