import assert from "node:assert/strict";
import { renderToStaticMarkup } from "react-dom/server";
import { FormError, PageHeader, ResponsiveList, StatusBadge } from "./mod.ts";

interface Row {
  id: number;
  name: string;
  serial: string;
}

const rows: Row[] = [{ id: 1, name: "Norte", serial: "SN-1" }, {
  id: 2,
  name: "Sur",
  serial: "SN-2",
}];

const list = (r: Row[]) =>
  renderToStaticMarkup(
    <ResponsiveList
      label="Stations"
      testId="stations"
      rows={r}
      rowKey={(x) => x.id}
      rowAttrs={(x) => ({ "data-station-id": x.id })}
      empty={<p className="empty">None</p>}
      columns={[
        { label: "Name", primary: true, cell: (x) => x.name },
        {
          label: "Status",
          aside: true,
          cell: () => <StatusBadge tone="green">Online</StatusBadge>,
        },
        { label: "Serial", className: "mono", cell: (x) => x.serial },
        {
          label: "Count",
          numeric: true,
          cellAttrs: (x) => ({ "data-testid": `n-${x.id}` }),
          cell: () => 3,
        },
        { label: "Actions", actions: true, cell: (x) => <a href={`/s/${x.id}`}>Edit</a> },
      ]}
    />,
  );

Deno.test("ResponsiveList renders each row once, in one named table", () => {
  const html = list(rows);
  assert.equal(html.match(/<table/g)?.length, 1);
  assert.equal(html.match(/data-station-id=/g)?.length, 2);
  assert.match(html, /<table class="data rlist" aria-label="Stations" data-testid="stations">/);
  assert.match(html, /<th scope="col">Name<\/th>/);
  assert.match(html, /<th scope="col" class="num">Count<\/th>/);
});

Deno.test("ResponsiveList cells carry their column label, except title, aside and actions", () => {
  const html = list(rows);
  assert.match(html, /<td class="mono" data-label="Serial">SN-1<\/td>/);
  assert.match(html, /<td class="num" data-label="Count" data-testid="n-1">3<\/td>/);
  assert.match(html, /<td class="rl-primary">Norte<\/td>/);
  assert.match(html, /<td class="rl-aside"><span class="badge badge-green">Online<\/span><\/td>/);
  assert.match(html, /<td class="rl-actions"><a href="\/s\/1">Edit<\/a><\/td>/);
});

Deno.test("ResponsiveList shows the empty state, not a table, without rows", () => {
  assert.equal(list([]), '<p class="empty">None</p>');
});

Deno.test("PageHeader puts the subtitle with the title and the actions beside them", () => {
  assert.equal(
    renderToStaticMarkup(
      <PageHeader title="Zones" subtitle="All" actions={<a href="/n">New</a>} />,
    ),
    '<div class="page-head"><div><h1>Zones</h1><p class="muted">All</p></div>' +
      '<div class="page-actions"><a href="/n">New</a></div></div>',
  );
  assert.equal(
    renderToStaticMarkup(<PageHeader title="Users" />),
    '<div class="page-head"><h1>Users</h1></div>',
  );
});

Deno.test("FormError renders an alert only with a message", () => {
  const none = "";
  assert.equal(renderToStaticMarkup(<FormError>{none}</FormError>), "");
  assert.equal(renderToStaticMarkup(<FormError>{undefined}</FormError>), "");
  assert.equal(
    renderToStaticMarkup(<FormError testId="form-error">Wrong</FormError>),
    '<div class="alert alert-error notice" role="alert" data-testid="form-error">Wrong</div>',
  );
});
