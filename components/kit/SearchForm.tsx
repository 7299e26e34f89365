/** The search box of a list page: a GET form with one `q` field, Search and Clear. */

/** Props of {@link SearchForm}. */
export interface SearchFormProps {
  /** Where the form is sent (the list page). */
  action: string;
  /** The search field's id. */
  id: string;
  /** The field's label, read by screen readers only. */
  label: string;
  placeholder: string;
  /** The current search; Clear shows only with one. */
  q?: string;
  /** The submit button's text. */
  submit: string;
  /** The Clear link's text and target (the list without the search: `action` by default). */
  clear: string;
  clearHref?: string;
  /** Other query fields the search keeps (the tab of the list), sent as hidden inputs. */
  hidden?: Record<string, string>;
}

/** `<form class="search" role="search">` with the labelled field, the button and the Clear link. */
export function SearchForm(
  { action, id, label, placeholder, q, submit, clear, clearHref, hidden = {} }: SearchFormProps,
) {
  return (
    <form method="get" action={action} className="search" role="search">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor={id} className="visually-hidden">{label}</label>
      <input
        id={id}
        type="search"
        name="q"
        defaultValue={q}
        maxLength={200}
        placeholder={placeholder}
      />
      <button type="submit" className="btn btn-secondary">{submit}</button>
      {q && <a className="btn btn-ghost" href={clearHref ?? action}>{clear}</a>}
    </form>
  );
}
