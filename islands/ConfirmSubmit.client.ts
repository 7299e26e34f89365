/**
 * Browser side of ConfirmSubmit (plain script): the button opens the dialog from the form's
 * template (focus on Confirm); Cancel, Escape or a click beside the box closes it and gives
 * the focus back; Confirm posts the form with `confirm=yes`.
 */

/** Adds the dialog to the server-rendered form in `root`. */
export function mount(root: HTMLElement) {
  const form = root.querySelector("form");
  const template = form?.querySelector("template");
  const opener = form?.querySelector<HTMLButtonElement>("button[type=submit]");
  const confirm = form?.querySelector<HTMLInputElement>("input[name=confirm]");
  if (!form || !template || !opener || !confirm) return;
  let dialog: HTMLElement | null = null;

  const onKey = (e: KeyboardEvent) => {
    if (e.key === "Escape") close();
  };
  function close() {
    dialog?.remove();
    dialog = null;
    document.removeEventListener("keydown", onKey);
    opener!.focus();
  }

  opener.addEventListener("click", (e) => {
    e.preventDefault();
    if (dialog) return;
    const d = template.content.firstElementChild!.cloneNode(true) as HTMLElement;
    dialog = d;
    d.addEventListener("click", (ev) => {
      if (ev.target === d) close();
    });
    d.querySelector<HTMLButtonElement>("[data-cancel]")!.onclick = close;
    const ok = d.querySelector<HTMLButtonElement>("[data-confirm]")!;
    ok.onclick = () => {
      confirm.value = "yes";
      ok.disabled = true;
      form.submit();
    };
    form.append(d);
    ok.focus();
    document.addEventListener("keydown", onKey);
  });
}
