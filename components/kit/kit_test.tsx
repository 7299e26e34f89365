import assert from "node:assert/strict";
import { renderToStaticMarkup } from "react-dom/server";
import {
  Card,
  Facts,
  FormError,
  NotFound,
  PageHeader,
  Picker,
  ResponsiveList,
  RetryCard,
  SearchForm,
  StatusBadge,
} from "./mod.ts";

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
  assert.equal(
    renderToStaticMarkup(<PageHeader title="Pricing" subtitle="Rates" subtitleClass="page-sub" />),
    '<div class="page-head"><div><h1>Pricing</h1><p class="page-sub">Rates</p></div></div>',
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

Deno.test("Pager: a named nav, the range text, the current page and plain links", async () => {
  const { Pager, pageNumbers } = await import("./mod.ts");
  const t = (k: string, p?: Record<string, unknown>) => `${k}${p ? JSON.stringify(p) : ""}`;
  const html = renderToStaticMarkup(
    <Pager
      t={t}
      label="Stations"
      page={{ page: 3, size: 25, pages: 10, total: 240 }}
      href={(to) => `/l?page=${to.page}&size=${to.size}`}
    />,
  );
  assert.match(
    html,
    /<nav class="pager" aria-label="common.pager.label\{&quot;list&quot;:&quot;Stations&quot;\}">/,
  );
  assert.match(
    html,
    /common.pager.range\{&quot;from&quot;:51,&quot;to&quot;:75,&quot;total&quot;:240\}/,
  );
  assert.match(html, /<a href="\/l\?page=3&amp;size=25" aria-current="page"/);
  assert.equal(html.match(/aria-current="page"/g)?.length, 1);
  assert.match(html, /<a href="\/l\?page=2&amp;size=25" rel="prev">/);
  assert.match(html, /<a href="\/l\?page=4&amp;size=25" rel="next">/);
  assert.match(html, /<a href="\/l\?page=1&amp;size=100">100<\/a>/);
  assert.doesNotMatch(html, /<script|onclick/);
  assert.deepEqual(pageNumbers(6, 12), [1, null, 4, 5, 6, 7, 8, null, 12]);
  assert.deepEqual(pageNumbers(1, 3), [1, 2, 3]);
});

Deno.test("Picker: a labelled select of a GET form, the current option chosen", () => {
  const html = renderToStaticMarkup(
    <Picker
      label="Period"
      name="period"
      value="2026-02"
      options={["2026-01", "2026-02"]}
      text={(p) => `P ${p}`}
    />,
  );
  assert.equal(
    html,
    '<label class="field"><span>Period</span><select name="period">' +
      '<option value="2026-01">P 2026-01</option>' +
      '<option value="2026-02" selected="">P 2026-02</option></select></label>',
  );
  const years = renderToStaticMarkup(
    <Picker label="Year" name="year" value={2026} options={[2025, 2026]} />,
  );
  assert.match(years, /<option value="2026" selected="">2026<\/option>/);
});

Deno.test("Card: a section with its h2 first, labelled by it only when it has an id", () => {
  assert.equal(
    renderToStaticMarkup(
      <Card title="Units" data-testid="units">
        <p>x</p>
      </Card>,
    ),
    '<section class="card" data-testid="units"><h2>Units</h2><p>x</p></section>',
  );
  assert.equal(
    renderToStaticMarkup(<Card title="Costs" headingId="costs" className="wide" />),
    '<section class="card wide" aria-labelledby="costs"><h2 id="costs">Costs</h2></section>',
  );
});

Deno.test("SearchForm: a GET search keeping the hidden fields; Clear only with a search", () => {
  const form = (q?: string) =>
    renderToStaticMarkup(
      <SearchForm
        action="/admin/users"
        hidden={{ tab: "admins" }}
        id="s"
        label="Search accounts"
        placeholder="Name or e-mail"
        q={q}
        submit="Search"
        clear="Clear"
        clearHref="/admin/users?tab=admins"
      />,
    );
  const empty = form();
  assert.match(empty, /^<form class="search" role="search" action="\/admin\/users" method="get">/);
  assert.match(empty, /<input type="hidden" name="tab" value="admins"\/>/);
  assert.match(empty, /<label for="s" class="visually-hidden">Search accounts<\/label>/);
  assert.doesNotMatch(empty, /Clear/);
  assert.match(form("ana"), /value="ana"/);
  assert.match(
    form("ana"),
    /<a class="btn btn-ghost" href="\/admin\/users\?tab=admins">Clear<\/a>/,
  );
});

Deno.test("NotFound: the title, the message and the way back", () => {
  assert.equal(
    renderToStaticMarkup(
      <NotFound title="Gone" message="Not here" back={{ href: "/x", label: "Back" }} testId="nf" />,
    ),
    '<section class="card empty" data-testid="nf"><h1>Gone</h1><p>Not here</p>' +
      '<a class="btn btn-secondary" href="/x">Back</a></section>',
  );
  assert.match(
    renderToStaticMarkup(
      <NotFound title="Gone" back={{ href: "/x", label: "Back", primary: true }} testId="nf" />,
    ),
    /<h1>Gone<\/h1><a class="btn" href="\/x">/,
  );
});

Deno.test("RetryCard: an alert card worded from its key prefix, with Retry", () => {
  const t = (k: string) => `<${k}>`;
  assert.equal(
    renderToStaticMarkup(<RetryCard t={t} prefix="x.errors" href="/user" testId="e" />),
    '<section class="card" role="alert" data-testid="e"><h2>&lt;x.errors.heading&gt;</h2>' +
      '<p>&lt;x.errors.message&gt;</p><a class="btn" href="/user">&lt;x.errors.retry&gt;</a></section>',
  );
});

Deno.test("Facts: a dt and a dd per row, in order", () => {
  assert.equal(
    renderToStaticMarkup(
      <Facts className="facts" rows={[["Zone", "Norte"], ["Units", 3]]} />,
    ),
    '<dl class="facts"><dt>Zone</dt><dd>Norte</dd><dt>Units</dt><dd>3</dd></dl>',
  );
});
