/**
 * Browser side of TermsConsent (plain script; it reads only the server-rendered markup, so
 * the legal texts are sent once): the tabs show one text at a time; ticking the box or
 * following the link opens the dialog instead; Accept ticks the box; Cancel, Escape or a
 * click beside the box closes it.
 */

/** Adds the dialog's behaviour to the consent field in `root`. */
export function mount(root: HTMLElement) {
  const box = root.querySelector<HTMLInputElement>("input#terms");
  const dialog = root.querySelector<HTMLElement>("#terms-dialog");
  const link = root.querySelector<HTMLAnchorElement>("a[href='#terms-dialog']");
  const tablist = root.querySelector<HTMLElement>("[role=tablist]");
  if (!box || !dialog || !link || !tablist) return;
  const tabs = [...tablist.querySelectorAll<HTMLButtonElement>("[data-tab]")];

  const show = (name: string) => {
    for (const tab of tabs) {
      const on = tab.dataset.tab === name;
      tab.setAttribute("aria-selected", String(on));
      if (on) tab.setAttribute("aria-current", "page");
      else tab.removeAttribute("aria-current");
      const doc = root.querySelector<HTMLElement>(`#${tab.dataset.tab}-doc`);
      if (doc) doc.hidden = !on;
    }
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === "Escape") close();
  };
  const open = () => {
    show("terms");
    dialog.classList.add("open");
    document.addEventListener("keydown", onKey);
  };
  function close() {
    dialog!.classList.remove("open");
    document.removeEventListener("keydown", onKey);
  }

  tablist.hidden = false;
  show("terms");
  for (const tab of tabs) tab.addEventListener("click", () => show(tab.dataset.tab!));
  box.addEventListener("change", () => {
    if (!box.checked) return;
    // Ticking asks for the texts first: the box is ticked by Accept.
    box.checked = false;
    open();
  });
  link.addEventListener("click", (e) => {
    e.preventDefault();
    open();
  });
  dialog.addEventListener("click", (e) => {
    if (e.target === dialog) close();
  });
  dialog.querySelector<HTMLElement>("[data-cancel]")?.addEventListener("click", (e) => {
    e.preventDefault();
    close();
  });
  dialog.querySelector<HTMLElement>("[data-accept]")?.addEventListener("click", (e) => {
    e.preventDefault();
    box.checked = true;
    close();
  });
}
