/**
 * Browser side of TermsDialog (plain script): following the header's terms link opens the
 * dialog (fetched once from `/legal/dialog`, the portal's own markup) on its Terms tab; the
 * tabs show one text at a time (arrow keys move between them); Cancel, Accept, Escape or a
 * click beside the box close it and focus goes back to the link. If the dialog cannot be
 * loaded, the link is followed.
 */

/** Wires the link beside `root`. */
export function mount(root: HTMLElement) {
  const link = root.closest(".header-actions")?.querySelector<HTMLAnchorElement>(
    "a[data-terms-dialog]",
  );
  if (!link) return;
  let dialog: HTMLElement | null = null;

  const tabsOf = (d: HTMLElement) => [...d.querySelectorAll<HTMLButtonElement>("[data-tab]")];
  const show = (d: HTMLElement, name: string) => {
    for (const tab of tabsOf(d)) {
      const on = tab.dataset.tab === name;
      tab.setAttribute("aria-selected", String(on));
      // The tab look of the portal marks the chosen one by aria-current.
      if (on) tab.setAttribute("aria-current", "page");
      else tab.removeAttribute("aria-current");
      tab.tabIndex = on ? 0 : -1;
      const doc = d.querySelector<HTMLElement>(`[data-doc=${tab.dataset.tab}]`);
      if (doc) doc.hidden = !on;
    }
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === "Escape") close();
  };
  function close() {
    if (!dialog) return;
    dialog.classList.remove("open");
    document.removeEventListener("keydown", onKey);
    link!.focus();
  }
  const wire = (d: HTMLElement) => {
    const tabs = tabsOf(d);
    for (const tab of tabs) {
      tab.addEventListener("click", () => show(d, tab.dataset.tab!));
      tab.addEventListener("keydown", (e) => {
        if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
        const next = tabs[
          (tabs.indexOf(tab) + (e.key === "ArrowRight" ? 1 : -1) + tabs.length) %
          tabs.length
        ];
        show(d, next.dataset.tab!);
        next.focus();
      });
    }
    for (const b of d.querySelectorAll("[data-close]")) b.addEventListener("click", close);
    d.addEventListener("click", (e) => {
      if (e.target === d) close();
    });
  };
  const open = (d: HTMLElement) => {
    show(d, "terms");
    d.classList.add("open");
    document.addEventListener("keydown", onKey);
    d.querySelector<HTMLElement>("[aria-selected=true]")?.focus();
  };

  link.addEventListener("click", async (e) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    if (!dialog) {
      try {
        const res = await fetch("/legal/dialog", { credentials: "same-origin" });
        if (!res.ok) throw new Error(`HTTP error! status: ${res.status}`);
        const box = document.createElement("div");
        box.innerHTML = await res.text();
        const d = box.querySelector<HTMLElement>("#terms-privacy");
        if (!d) throw new Error("no dialog");
        document.body.append(d);
        wire(d);
        dialog = d;
      } catch {
        location.href = link.href;
        return;
      }
    }
    open(dialog);
  });
}
