// The zproxy console: plain JavaScript, no framework. Every page is data
// from /console/api/..., which runs SQL as the logged-in role.
'use strict';

const SVGNS = 'http://www.w3.org/2000/svg';
const main = document.getElementById('page');

// h builds an HTML element: attrs are attributes, except text (its text),
// class, and on* (listeners); kids are nodes or strings.
function h(tag, attrs, ...kids) {
  return build(document.createElement(tag), attrs, kids);
}

// s builds an SVG element the same way.
function s(tag, attrs, ...kids) {
  return build(document.createElementNS(SVGNS, tag), attrs, kids);
}

function build(el, attrs, kids) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') el.textContent = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const kid of kids.flat()) {
    if (kid !== undefined && kid !== null && kid !== false) el.append(kid);
  }
  return el;
}

class Unauthorized extends Error {}

// api calls the console's API; a body makes it a POST of JSON. A 401
// shows the login form.
async function api(path, body) {
  const opts = { credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    opts.method = 'POST';
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const r = await fetch('/console/api/' + path, opts);
  const data = await r.json().catch(() => ({ error: r.statusText }));
  if (r.status === 401 && path !== 'login') {
    showLogin();
    throw new Unauthorized();
  }
  if (!r.ok) {
    throw new Error((data.sqlstate ? data.sqlstate + ': ' : '') + (data.error || r.status));
  }
  return data;
}

function fmt(n, digits = 0) {
  if (n === null || n === undefined || Number.isNaN(n)) return '—';
  return Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

function fmtBytes(n) {
  if (n === null || n === undefined) return '—';
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return fmt(n, i ? 1 : 0) + ' ' + units[i];
}

function fmtTime(t) {
  return t ? String(t).replace('T', ' ').replace(/\.\d+/, '').replace(/Z$|[+-]\d\d:\d\d$/, '') : '—';
}

// card is a white panel; a plain object first gives it attributes.
function card(...kids) {
  let attrs = { class: 'card' };
  if (kids.length && kids[0] && kids[0].constructor === Object) {
    attrs = Object.assign({}, kids.shift());
    attrs.class = 'card ' + (attrs.class || '');
  }
  return h('div', attrs, ...kids);
}

function pathTag(path) {
  if (!path) return h('span', { class: 'muted', text: '—' });
  const cls = path.includes('full') ? 'tag full' : path.includes('z-order') ? 'tag z' : 'tag';
  return h('span', { class: cls, text: path });
}

// ---- plan trees ----------------------------------------------------------

// planTree draws an EXPLAIN (FORMAT JSON) document (or a plan's shape from
// pg_stat_statements) as a tree of boxes, the root on top.
function planTree(doc) {
  const root = Array.isArray(doc) ? doc[0] && doc[0].Plan : doc && doc.Plan;
  if (!root) return h('p', { class: 'muted', text: 'No plan recorded (the statement does not plan).' });
  const W = 236, LINE = 16, GAP = 18, VGAP = 34;
  const nodes = [];
  let leaf = 0, maxLines = 0;
  function lines(n) {
    const out = [n['Node Type'] + (n['Join Type'] && n['Join Type'] !== 'Inner' ? ' (' + n['Join Type'] + ')' : '')];
    if (n['Relation Name']) out.push('on ' + n['Relation Name'] + (n['Index Name'] ? ' using ' + n['Index Name'] : ''));
    const how = n['zproxy Access Method'] || n['Strategy'] || n['Operation'] || n['Subplan Name'];
    if (how) out.push(how);
    const facts = [];
    if (n['zproxy Shards']) facts.push('shards ' + n['zproxy Shards']);
    if (n['Actual Rows'] !== undefined) facts.push(fmt(n['Actual Rows']) + ' rows');
    else if (n['Plan Rows'] !== undefined) facts.push('~' + fmt(n['Plan Rows']) + ' rows');
    if (n['zproxy Items Read'] !== undefined) facts.push(fmt(n['zproxy Items Read']) + ' items');
    if (facts.length) out.push(facts.join(', '));
    return out;
  }
  function place(n, depth) {
    const kids = (n.Plans || []).map(k => place(k, depth + 1));
    const ls = lines(n);
    maxLines = Math.max(maxLines, ls.length);
    const x = kids.length ? (kids[0].x + kids[kids.length - 1].x) / 2 : leaf++ * (W + GAP);
    const node = { n, x, depth, lines: ls, kids };
    nodes.push(node);
    return node;
  }
  place(root, 0);
  const H = maxLines * LINE + 12;
  const depth = Math.max(...nodes.map(d => d.depth)) + 1;
  const width = leaf * (W + GAP) - GAP + 2, height = depth * (H + VGAP) - VGAP + 2;
  const svg = s('svg', { width, height, viewBox: `-1 -1 ${width} ${height}`, role: 'img', 'aria-label': 'plan tree' });
  for (const d of nodes) {
    for (const k of d.kids) {
      const x1 = d.x + W / 2, y1 = d.depth * (H + VGAP) + H, x2 = k.x + W / 2, y2 = k.depth * (H + VGAP);
      svg.append(s('path', { class: 'edge', d: `M${x1},${y1} C${x1},${y1 + VGAP / 2} ${x2},${y2 - VGAP / 2} ${x2},${y2}` }));
    }
  }
  for (const d of nodes) {
    const method = d.n['zproxy Access Method'] || '';
    const cls = 'node' + (d.n['Relation Name'] ? ' scan' : '') + (method === 'full scan' ? ' full' : '');
    const g = s('g', { class: cls, transform: `translate(${d.x},${d.depth * (H + VGAP)})`, 'data-node-type': d.n['Node Type'] });
    g.append(s('rect', { width: W, height: H, rx: 7 }));
    d.lines.forEach((text, i) => {
      const clipped = text.length > 34 ? text.slice(0, 33) + '…' : text;
      g.append(s('text', { x: 10, y: 18 + i * LINE, class: i === 0 ? 'title' : '', text: clipped }, s('title', { text })));
    });
    svg.append(g);
  }
  return h('div', { class: 'plan' }, svg);
}

// ---- pages -----------------------------------------------------------------

async function statementsPage() {
  const rows = await api('statements');
  const body = h('tbody');
  const table = h('table', { id: 'statements' },
    h('thead', {}, h('tr', {}, ['Statement', 'Calls', 'Total ms', 'Mean ms', 'Rows', 'Items / call', 'Access path', 'Full scans']
      .map((t, i) => h('th', { class: i > 0 && i < 6 || i === 7 ? 'num' : '', text: t })))), body);
  let opened = false;
  for (const r of rows) {
    const detail = h('tr', { class: 'plan-row', hidden: true }, h('td', { colspan: 8 }));
    const tr = h('tr', {
      class: 'stmt', 'data-queryid': r.queryid || '', onclick: () => {
        const open = detail.hidden;
        detail.hidden = !open;
        tr.classList.toggle('open', open);
        if (open && !detail.firstChild.firstChild) {
          detail.firstChild.append(r.query.length > 240 ? h('pre', { text: shorten(r.query, 4000) }) : '', planTree(r.plan));
        }
      }
    },
      h('td', {}, h('code', { text: shorten(r.query, 240) })),
      h('td', { class: 'num', text: fmt(r.calls) }),
      h('td', { class: 'num', text: fmt(r.total_exec_time, 2) }),
      h('td', { class: 'num', text: fmt(r.mean_exec_time, 3) }),
      h('td', { class: 'num', text: fmt(r.rows) }),
      h('td', { class: 'num', text: r.calls ? fmt(r.items_read / r.calls, 1) : '—' }),
      h('td', {}, pathTag(r.access_path)),
      h('td', { class: 'num', text: fmt(r.full_scans) }));
    body.append(tr, detail);
    if (!opened && r.plan && r.access_path) {
      opened = true;
      tr.click();
    }
  }
  return [card(h('h1', { text: 'Statements' }),
    h('p', { class: 'muted', text: `pg_stat_statements of this proxy: ${rows.length} statement${rows.length === 1 ? '' : 's'}, most execution time first. Click one for its plan (the latest sampled execution's, without its constants).` })),
    card(rows.length ? table : h('p', { class: 'muted', text: 'No statements recorded yet.' }))];
}

async function sessionsPage() {
  const rows = await api('sessions');
  const table = h('table', { id: 'sessions' },
    h('thead', {}, h('tr', {}, ['PID', 'Role', 'Application', 'Client', 'Connected', 'State', 'Query'].map(t => h('th', { text: t })))),
    h('tbody', {}, rows.map(r => h('tr', {},
      h('td', { class: 'num', text: r.pid }),
      h('td', { text: r.usename || '—' }),
      h('td', {}, r.application_name || '—', r.console ? h('span', { class: 'tag z', text: 'this console' }) : null),
      h('td', { text: r.client_addr || 'local' }),
      h('td', { text: fmtTime(r.backend_start) }),
      h('td', {}, r.state ? h('span', { class: 'tag', text: r.state }) : '—'),
      h('td', {}, h('code', { text: r.query || '' }))))));
  return [card(h('h1', { text: 'Sessions' }),
    h('p', { class: 'muted', text: `pg_stat_activity: ${rows.length} session${rows.length === 1 ? '' : 's'}, of every proxy sharing this store (a role without pg_read_all_stats sees others' sessions without their queries).` })),
    card(table)];
}

function bars(label, before, after, unit) {
  const top = Math.max(before || 0, after || 0, 1e-9);
  const bar = (cls, v) => {
    const b = h('div', { class: 'bar ' + cls });
    b.style.width = Math.max(1, 100 * (v || 0) / top) + '%';
    return b;
  };
  return [
    h('span', { text: label + ' before' }), bar('before', before), h('span', { class: 'num', text: fmt(before, 1) + ' ' + unit }),
    h('span', { text: label + ' after' }), bar('after', after), h('span', { class: 'num', text: fmt(after, 1) + ' ' + unit })];
}

async function advicePage() {
  const rows = await api('advice');
  const cards = rows.map(r => {
    const ddl = h('pre', { class: 'sql ddl', text: r.recommendation });
    const copy = h('button', {
      type: 'button', text: 'Copy DDL', onclick: async () => {
        try { await navigator.clipboard.writeText(r.recommendation); copy.textContent = 'Copied'; }
        catch (e) { copy.textContent = 'Select the text to copy'; }
      }
    });
    return card({ class: 'advice' },
      h('h2', {}, `${r.kind} on ${r.table_name}`),
      h('div', { class: 'row' }, ddl, copy),
      h('div', { class: 'grid2' },
        h('div', { class: 'bars' }, bars('items / call', r.items_before, r.items_after, 'items'),
          bars('requests / call', r.requests_before, r.requests_after, 'req')),
        h('div', {},
          h('p', { text: r.reason || '' }),
          h('p', { class: 'muted', text: `${fmt(r.calls)} calls helped; each row written costs ${fmt(r.write_items_per_row, 1)} item(s) more (${fmt(r.rows_written)} rows written).` }))),
      (r.statement_texts || []).length ? h('div', {}, h('span', { class: 'muted', text: 'Statements it helps:' }),
        ...(r.statement_texts || []).map(q => h('pre', { text: q }))) : null);
  });
  return [card(h('h1', { text: 'Index advice' }),
    h('p', { class: 'muted', text: 'zproxy_index_advice: recommendations from the recorded workload and table statistics, with estimated items read and store requests per call before and after, and the DDL to run.' })),
    ...(cards.length ? cards : [card(h('p', { class: 'muted', text: 'No recommendations: the recorded workload is served well, or too little has run yet.' }))])];
}

function shorten(v, n = 80) {
  if (v === null || v === undefined) return '—';
  const t = String(v);
  return t.length > n ? t.slice(0, n - 1) + '…' : t;
}

async function tablesPage() {
  const rows = await api('tables');
  const cards = rows.map(t => card({ class: 'table-card', 'data-table': t.name },
    h('h2', {}, t.name, ' ', h('span', { class: 'tag', text: t.kind === 'v' ? 'view' : 'table' }), ' ',
      t.options ? h('span', { class: 'tag', text: t.options }) : null),
    h('p', {},
      h('b', { text: fmt(t.reltuples) }), ' rows (statistics)', ' · ', h('b', { text: fmt(t.n_live_tup) }), ' live',
      ' · ', h('b', { class: 'size-total', text: fmtBytes(t.total_bytes) }),
      ' (table ', h('span', { class: 'size-table', text: fmtBytes(t.table_bytes) }), ', indexes ', h('span', { class: 'size-indexes', text: fmtBytes(t.index_bytes) }), ')',
      ' · analyzed ', fmtTime(t.last_analyze || t.last_autoanalyze), ' · owner ', t.owner || '—'),
    t.indexes.length ? h('table', { class: 'indexes' },
      h('thead', {}, h('tr', {}, h('th', { text: 'Index' }), h('th', { text: 'Definition' }), h('th', { class: 'num', text: 'Entries' }), h('th', { class: 'num', text: 'Size' }))),
      h('tbody', {}, t.indexes.map(i => h('tr', {}, h('td', { text: i.indexname }), h('td', {}, h('code', { text: i.indexdef })),
        h('td', { class: 'num', text: fmt(i.reltuples) }), h('td', { class: 'num index-size', text: fmtBytes(i.bytes) }))))) : null,
    t.columns.length ? h('table', { class: 'columns' },
      h('thead', {}, h('tr', {}, ['Column', 'Null frac', 'Avg width', 'Distinct', 'Most common values', 'Histogram bounds']
        .map((x, i) => h('th', { class: i && i < 4 ? 'num' : '', text: x })))),
      h('tbody', {}, t.columns.map(c => h('tr', {},
        h('td', { text: c.attname }),
        h('td', { class: 'num', text: fmt(c.null_frac, 3) }),
        h('td', { class: 'num', text: fmt(c.avg_width) }),
        h('td', { class: 'num', text: c.n_distinct < 0 ? fmt(-c.n_distinct * 100, 1) + '% of rows' : fmt(c.n_distinct) }),
        h('td', {}, h('code', { text: shorten(c.most_common_vals, 60) })),
        h('td', {}, h('code', { text: shorten(c.histogram_bounds, 60) })))))) :
      h('p', { class: 'muted', text: 'No column statistics: run ANALYZE ' + t.name + '.' })));
  return [card(h('h1', { text: 'Tables & indexes' }),
    h('p', { class: 'muted', text: 'pg_class, pg_stat_user_tables, pg_indexes and pg_stats of the public schema, as this role sees them. Sizes are pg_table_size, pg_indexes_size and pg_relation_size: on Pebble measured in the store\'s files (compressed, deleted rows counted until VACUUM); on DynamoDB estimated as analyzed rows × average item size; — until a table is analyzed there. A primary key is the table\'s own order: its rows count as the table\'s.' })),
    ...(cards.length ? cards : [card(h('p', { class: 'muted', text: 'No tables.' }))])];
}

// ---- the Z-order picture ---------------------------------------------------

const EXAMPLE = 'SELECT * FROM readings WHERE lat BETWEEN 40.2 AND 40.5 AND lon BETWEEN -74.3 AND -74.1';

// short prints a value's text for an axis: numbers to six significant
// digits (a data bound is a cell edge: 39.93749999999999).
function short(v) {
  if (v === undefined || v === null) return '';
  const n = Number(v);
  if (v !== '' && Number.isFinite(n) && /^-?[\d.e+-]+$/i.test(v)) return String(Number(n.toPrecision(6)));
  return shorten(v, 22);
}

function rangeColor(i) { return `hsl(${(i * 137.508) % 360}, 62%, 52%)`; }

// zPicture draws one Z-order read: the data's extent as the square, each
// range's cells in its colour, the query box outlined in red.
function zPicture(pic) {
  const W = 440, H = pic.y ? 440 : 90, L = 96, T = 14, B = 46, R = 20;
  const svg = s('svg', { width: L + W + R, height: T + H + B, class: 'zpic', role: 'img', 'aria-label': 'Z-order picture' });
  svg.append(s('rect', { class: 'extent', x: L, y: T, width: W, height: H }));
  const X = f => L + f * W, Y = f => T + (1 - f) * H;
  pic.ranges.forEach((r, i) => {
    const g = s('g', { class: 'range', 'data-range': i + 1, fill: rangeColor(i), 'fill-opacity': 0.55 });
    for (const c of r.cells) {
      g.append(s('rect', { class: 'cell', x: X(c[0]), y: Y(c[3]), width: Math.max(0.6, (c[2] - c[0]) * W), height: Math.max(0.6, (c[3] - c[1]) * H) }));
    }
    svg.append(g);
  });
  const y0 = pic.y ? pic.y.from : 0, y1 = pic.y ? pic.y.to : 1;
  svg.append(s('rect', { class: 'qbox', x: X(pic.x.from), y: Y(y1), width: Math.max(1, (pic.x.to - pic.x.from) * W), height: Math.max(1, (y1 - y0) * H) }));
  const label = (x, y, text, anchor) => svg.append(s('text', { class: 'axis', x, y, 'text-anchor': anchor || 'middle', text }));
  label(X(0), T + H + 14, short(pic.x.extentLow), 'start');
  label(X(1), T + H + 14, short(pic.x.extentHigh), 'end');
  label(X((pic.x.from + pic.x.to) / 2), T + H + 28, `${short(pic.x.boxLow)} … ${short(pic.x.boxHigh)}`);
  label(L + W / 2, T + H + 42, pic.x.name + ' →');
  if (pic.y) {
    label(L - 6, Y(0), short(pic.y.extentLow), 'end');
    label(L - 6, Y(1) + 10, short(pic.y.extentHigh), 'end');
    label(L - 6, Y((y0 + y1) / 2), short(pic.y.boxLow) + ' …', 'end');
    label(L - 6, Y((y0 + y1) / 2) + 12, short(pic.y.boxHigh), 'end');
    const t = s('text', { class: 'axis', x: 12, y: T + H / 2, 'text-anchor': 'middle', transform: `rotate(-90 12 ${T + H / 2})`, text: pic.y.name + ' →' });
    svg.append(t);
  }
  return svg;
}

function zLegend(pic) {
  const top = Math.max(1, ...pic.ranges.map(r => r.items));
  const rows = pic.ranges.map((r, i) => {
    const bar = h('div', { class: 'bar' });
    bar.style.width = Math.max(1, 100 * Math.max(0, r.items) / top) + '%';
    bar.style.background = rangeColor(i);
    const sw = h('span', { class: 'swatch' });
    sw.style.background = rangeColor(i);
    return h('tr', { 'data-range': i + 1 }, h('td', {}, sw, ' ', String(i + 1)),
      h('td', {}, h('code', { title: `[${r.start}, ${r.end || 'end'})`, text: (r.start || 'min').slice(0, 12) + '…' })),
      h('td', { class: 'num items', text: r.items < 0 ? '—' : fmt(r.items) }),
      h('td', { class: 'barcell' }, bar));
  });
  return h('div', {},
    h('p', {}, h('b', { text: String(pic.ranges.length) }), ` Z-address range${pic.ranges.length === 1 ? '' : 's'}`,
      pic.itemsRead >= 0 ? [', ', h('b', { text: fmt(pic.itemsRead) }), ' items read for ', h('b', { text: fmt(pic.rows) }), ' rows'] : ' (not run: no items per range)'),
    h('p', { class: 'muted', text: `Square: the ${pic.extent} of ${pic.x.name}${pic.y ? ' and ' + pic.y.name : ''}; red: the query box; cells: the ranges (${pic.shown} of ${pic.cells} drawn).` }),
    pic.others.length ? h('p', { class: 'muted', text: 'Not drawn: ' + pic.others.map(o => `${o.name} ${o.boxLow} … ${o.boxHigh}`).join('; ') }) : null,
    h('table', { class: 'legend' }, h('thead', {}, h('tr', {}, h('th', { text: 'Range' }), h('th', { text: 'Starts at' }),
      h('th', { class: 'num', text: 'Items read' }), h('th', { text: '' }))), h('tbody', {}, rows)));
}

async function drawZOrder(query, analyze, out) {
  out.replaceChildren(h('p', { class: 'muted', text: 'Explaining…' }));
  const res = await api('explain', { query, analyze });
  const parts = res.pictures.map(pic => card({ class: 'zorder-picture' },
    h('h2', { text: `${pic.relation} via Z-order index ${pic.index}` }),
    h('div', { class: 'grid2' }, zPicture(pic), zLegend(pic))));
  if (!parts.length) parts.push(card(h('p', { class: 'muted', text: 'No Z-order read in this plan: the optimizer chose another access path (see the plan below).' })));
  parts.push(card(h('h2', { text: 'Plan' }), planTree(res.plan)));
  out.replaceChildren(...parts);
}

async function zorderPage(params) {
  const q = params.get('q') || sessionStorage.getItem('zquery') || EXAMPLE;
  const text = h('textarea', { id: 'zquery', rows: 3, text: q });
  const analyze = h('input', { type: 'checkbox', id: 'zanalyze', checked: params.get('analyze') !== '0' });
  const out = h('div', { id: 'zresult' });
  const run = async () => {
    sessionStorage.setItem('zquery', text.value);
    main.dataset.state = 'loading';
    try {
      await drawZOrder(text.value, analyze.checked, out);
      main.dataset.state = 'loaded';
    } catch (e) {
      if (e instanceof Unauthorized) return;
      out.replaceChildren(card(h('p', { class: 'error', text: e.message })));
      main.dataset.state = 'error';
    }
  };
  const form = h('form', { onsubmit: e => { e.preventDefault(); run(); } },
    text, h('div', { class: 'row' }, h('label', {}, analyze, ' run it (EXPLAIN ANALYZE: items read per range), read-only'),
      h('button', { type: 'submit', class: 'primary', text: 'Draw' })));
  const head = card(h('h1', { text: 'Z-order picture' }),
    h('p', { class: 'muted', text: 'A query over a Z-order index, drawn from EXPLAIN (VERBOSE, FORMAT JSON): the query box over the data\'s extent, the Z-address ranges it became, and the items read in each.' }),
    form);
  if (params.get('q')) {
    try { await drawZOrder(text.value, analyze.checked, out); }
    catch (e) {
      if (e instanceof Unauthorized) throw e;
      out.replaceChildren(card(h('p', { class: 'error', text: e.message })));
    }
  }
  return [head, out];
}

// ---- routing and login -------------------------------------------------------

const pages = { statements: statementsPage, sessions: sessionsPage, advice: advicePage, tables: tablesPage, zorder: zorderPage };

async function route() {
  const [hash, qs] = (location.hash.slice(1) || 'statements').split('?');
  const name = pages[hash] ? hash : 'statements';
  for (const a of document.querySelectorAll('#nav a')) a.classList.toggle('active', a.dataset.page === name);
  main.dataset.page = name;
  main.dataset.state = 'loading';
  main.replaceChildren(h('p', { class: 'muted', text: 'Loading…' }));
  try {
    const content = await pages[name](new URLSearchParams(qs || ''));
    if (main.dataset.page !== name) return; // the user moved on
    main.replaceChildren(...[].concat(content));
    main.dataset.state = 'loaded';
  } catch (e) {
    if (e instanceof Unauthorized) return;
    main.replaceChildren(card(h('p', { class: 'error', text: e.message })));
    main.dataset.state = 'error';
  }
}

function showLogin() {
  document.getElementById('nav').hidden = true;
  document.getElementById('logout').hidden = true;
  document.getElementById('who').textContent = '';
  const form = document.getElementById('login-form').content.cloneNode(true).firstElementChild;
  form.addEventListener('submit', async e => {
    e.preventDefault();
    const err = form.querySelector('#login-error');
    err.hidden = true;
    try {
      await api('login', { user: form.user.value, password: form.password.value });
      await start();
    } catch (x) {
      err.textContent = x.message;
      err.hidden = false;
    }
  });
  main.dataset.page = 'login';
  main.dataset.state = 'login';
  main.replaceChildren(form);
}

async function start() {
  let who;
  try {
    who = await api('me');
  } catch (e) {
    if (!(e instanceof Unauthorized)) {
      main.replaceChildren(card(h('p', { class: 'error', text: e.message })));
      main.dataset.state = 'error';
    }
    return;
  }
  document.getElementById('nav').hidden = false;
  document.getElementById('logout').hidden = false;
  document.getElementById('who').textContent = who.user + (who.superuser ? ' (superuser)' : '');
  await route();
}

document.getElementById('logout').addEventListener('click', async () => {
  await api('logout', {}).catch(() => {});
  showLogin();
});
window.addEventListener('hashchange', route);
start();
