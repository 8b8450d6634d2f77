// The desk's page script (docs/approvals.md). Plain browser JavaScript, no build step, loaded from the desk's own
// origin (its Content-Security-Policy allows no inline script). Every value from a run is put in the page as text
// (textContent), never as HTML, with control and bidirectional characters shown escaped and marked. Every change is
// a POST with the session's CSRF token.
//
// The page never moves a decision under the pointer: cards are kept by key and updated in place; a new card is
// added at the end; a card that is decided, expires or leaves stays where it was, at its height, saying what became
// of it; a decision button that appeared or moved less than GUARD_MS ago ignores a click.
'use strict';

(() => {
  /** A decision button that appeared or moved this recently (ms) ignores a click. */
  const GUARD_MS = 700;
  const state = {
    csrf: '',
    user: null,
    clockOffsetMs: 0,
    source: null,
    historyTimer: 0,
    /** Cards by key, in the order they arrived: { el, sig, kind, workflowId, callId?, data, done? }. */
    approvals: new Map(),
    reviews: new Map(),
    /** Typed reasons and references, by field key, kept across rebuilds. */
    inputs: new Map(),
    /** Folds opened: `${viewDigest}\u0000${fold}` → { text } | { rows }. */
    opened: new Map(),
    /** Where each decision button was (page coordinates) and since when (performance.now()). */
    where: new WeakMap(),
  };
  const $ = (id) => document.getElementById(id);
  const now = () => Date.now() + state.clockOffsetMs;

  /** An element with properties (`text` → textContent, `data-*`/`aria-*` → attributes) and children. */
  function el(tag, props = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') e.textContent = String(v);
      else if (k === 'class') e.className = v;
      else if (k.startsWith('data-') || k.startsWith('aria-')) e.setAttribute(k, String(v));
      else e[k] = v;
    }
    for (const c of children) if (c !== undefined && c !== null && c !== false) e.append(c);
    return e;
  }

  // ---- text from a run: control and bidirectional characters escaped (Unicode UAX #9; TR36 "Bidirectional text") ----
  const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2069\ufeff]/g;
  const escapeHidden = (s) =>
    String(s).replace(HIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  /** A text element for a value from a run; marked `data-escaped` when it held hidden characters. */
  function shown(tag, s, props = {}) {
    const text = escapeHidden(s ?? '');
    const escaped = text !== String(s ?? '');
    return el(tag, {
      ...props,
      text,
      'data-escaped': escaped ? 'yes' : undefined,
      title: escaped ? 'holds control or bidirectional characters, shown escaped' : undefined,
    });
  }
  const idCode = (s, cls = '') => shown('code', s, { class: `id ${cls}`.trim() });

  async function api(path, body) {
    const init =
      body === undefined
        ? { headers: { accept: 'application/json' } }
        : {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...(state.csrf ? { 'x-csrf-token': state.csrf } : {}) },
            body: JSON.stringify(body),
          };
    let res;
    try {
      res = await fetch(path, { ...init, credentials: 'same-origin' });
    } catch {
      return { ok: false, status: 0, data: { error: 'the desk cannot be reached' } };
    }
    const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
    return { ok: res.ok, status: res.status, data };
  }
  const query = (params) => new URLSearchParams(params).toString();

  // ---- time ----
  function span(ms) {
    const s = Math.max(0, Math.round(ms / 1000));
    if (s < 60) return `${s} s`;
    if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
    if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
    return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  }
  // One formatter each (Intl.DateTimeFormat): toLocaleString builds one per call, which 1,000 cards feel.
  const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });
  const AT = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
  const when = (ms) => WHEN.format(ms);
  const at = (ms) => AT.format(ms);
  /** A text that `tick` keeps current: `kind` is `since` (waited), `until` (expires) or `hold` (runs). */
  const clock = (kind, ms) => el('span', { 'data-clock': kind, 'data-ms': ms, text: clockText(kind, ms) });
  function clockText(kind, ms) {
    if (kind === 'since') return `${span(now() - ms)} ago`;
    if (kind === 'hold') return ms <= now() ? 'now' : `in ${span(ms - now())}`;
    return ms <= now() ? 'expired' : `in ${span(ms - now())}`;
  }

  // ---- answers and connection: the answer floats over the page and moves nothing ----
  function answer(text, ok) {
    const a = $('answer');
    a.hidden = false;
    a.textContent = text;
    a.dataset.ok = ok ? 'yes' : 'no';
  }
  /** Hides the last answer, so the next one is the answer to this change. */
  function clearAnswer() {
    const a = $('answer');
    a.hidden = true;
    delete a.dataset.ok;
  }
  function connection(name, text) {
    const c = $('connection');
    c.dataset.state = name;
    c.textContent = text;
  }

  // ---- the pointer guard ----
  /**
   * Records where each decision button is; one that appeared or moved gets the time of the change and loses
   * `data-ready`, which it gets back GUARD_MS later (the page shows it armed; tests wait for it).
   */
  function settle() {
    const t = performance.now();
    let moved = false;
    for (const b of document.querySelectorAll('button[data-decides]')) {
      const r = b.getBoundingClientRect();
      const x = r.x + window.scrollX;
      const y = r.y + window.scrollY;
      const was = state.where.get(b);
      if (was && was.x === x && was.y === y) continue;
      state.where.set(b, { x, y, at: t });
      b.removeAttribute('data-ready');
      moved = true;
    }
    if (moved) setTimeout(arm, GUARD_MS);
  }
  function arm() {
    const t = performance.now();
    for (const b of document.querySelectorAll('button[data-decides]:not([data-ready])')) {
      const was = state.where.get(b);
      if (was && t - was.at >= GUARD_MS) b.setAttribute('data-ready', 'yes');
    }
  }
  /** A decision button's handler: ignored when the button appeared or moved less than GUARD_MS ago. */
  const decides = (props, run) =>
    el('button', {
      type: 'button',
      ...props,
      'data-decides': 'yes',
      onclick: (event) => {
        const was = state.where.get(event.currentTarget);
        if (!was || performance.now() - was.at < GUARD_MS) {
          answer('Nothing was sent: the page changed just before your click. Look again, then click.', false);
          return;
        }
        void run();
      },
    });

  // ---- pages ----
  const PAGES = ['login', 'approvals', 'reviews', 'history'];
  function show(page) {
    for (const p of PAGES) $(`page-${p}`).hidden = p !== page;
    for (const a of document.querySelectorAll('#tabs a')) a.setAttribute('aria-current', a.dataset.page === page);
    clearInterval(state.historyTimer);
    if (page === 'history') {
      void loadHistory();
      state.historyTimer = setInterval(() => void loadHistory(), 10_000);
    }
    settle();
  }
  function route() {
    if (!state.user) return show('login');
    const page = location.hash.slice(1);
    show(['approvals', 'reviews', 'history'].includes(page) ? page : 'approvals');
  }

  // ---- session ----
  async function boot() {
    const { ok, data } = await api('/api/session');
    if (!ok) {
      connection('offline', data.error || 'offline');
      return;
    }
    state.csrf = data.csrf || '';
    state.clockOffsetMs = data.nowMs - Date.now();
    if (data.user) return signedIn(data.user, data.via);
    state.user = null;
    $('login-form').hidden = !data.passwordLogin;
    $('login-proxy').hidden = data.passwordLogin;
    $('tabs').hidden = true;
    connection('idle', 'not logged in');
    route();
  }
  function signedIn(user, via) {
    state.user = user;
    $('operator').textContent = `${user}${via === 'proxy' ? ' (via proxy)' : ''}`;
    $('tabs').hidden = false;
    $('logout').hidden = via !== 'password';
    listen();
    route();
  }
  async function logIn(event) {
    event.preventDefault();
    const form = event.target;
    const r = await api('/api/login', { name: form.elements.name.value, password: form.elements.password.value });
    form.elements.password.value = '';
    if (!r.ok) {
      $('login-error').textContent = r.data.error || `HTTP ${r.status}`;
      return;
    }
    $('login-error').textContent = '';
    state.csrf = r.data.csrf;
    signedIn(r.data.user, r.data.via);
  }
  async function logOut() {
    const r = await api('/api/logout', {});
    if (r.ok) location.reload();
  }

  // ---- live feed ----
  function listen() {
    if (state.source) state.source.close();
    connection('connecting', 'connecting…');
    const source = new EventSource('/api/events');
    state.source = source;
    source.onopen = () => connection('live', 'live');
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) {
        connection('offline', 'offline: retrying in 5 s');
        setTimeout(() => void boot(), 5_000);
      } else connection('reconnecting', 'reconnecting…');
    };
    source.addEventListener('snapshot', (e) => {
      connection('live', 'live');
      render(JSON.parse(e.data));
    });
    source.addEventListener('trouble', (e) =>
      connection('trouble', `live, but Temporal: ${JSON.parse(e.data).message}`),
    );
  }

  /** A text input whose value survives rebuilds. */
  function kept(key, props) {
    const input = el('input', { ...props, value: state.inputs.get(key) || '', 'data-key': key });
    input.addEventListener('input', () => state.inputs.set(key, input.value));
    return input;
  }

  // ---- keyed cards: added at the end, rebuilt in place at their height, never removed by the feed ----
  /**
   * Puts `items` ([{ key, sig, build }]) into `book` and `list`: a new key is appended; a known key whose `sig`
   * changed is rebuilt in place, never shorter than it was. Returns the keys of the book not in `items`.
   */
  function place(book, list, items) {
    const seen = new Set();
    const added = document.createDocumentFragment();
    for (const item of items) {
      seen.add(item.key);
      const card = book.get(item.key);
      if (!card) {
        const node = item.build();
        book.set(item.key, { ...item, el: node });
        added.append(node);
      } else if (card.sig !== item.sig && !card.done) {
        rebuild(card, item.build());
        Object.assign(card, { sig: item.sig, data: item.data });
      }
    }
    list.append(added);
    return [...book.keys()].filter((k) => !seen.has(k));
  }
  function rebuild(card, next) {
    next.style.minHeight = `${card.el.getBoundingClientRect().height}px`;
    card.el.replaceWith(next);
    card.el = next;
  }

  function render(snap) {
    renderApprovals(snap.approvals);
    renderReviews(snap.reviews);
    settle();
  }

  // ---- approvals ----
  const callKey = (workflowId, callId) => `c\u0000${workflowId}\u0000${callId}`;

  function renderApprovals(workflows) {
    const items = [];
    for (const w of workflows) {
      if (w.blind) {
        items.push(...blindItems(w));
        continue;
      }
      const calls = w.calls.map((call) => ({ workflowId: w.workflowId, call }));
      for (const row of calls) items.push({ key: callKey(w.workflowId, row.call.callId), ...callItem(row) });
      items.push(...batchesOf(w.workflowId, calls));
    }
    const left = place(state.approvals, $('approvals-list'), items);
    for (const key of left) void departed(state.approvals.get(key));
    counts();
  }

  function counts() {
    const cards = [...state.approvals.values()].map((c) => c.el.dataset.state);
    const open = cards.filter((s) => s === 'waiting' || s === 'blind').length;
    $('approvals-empty').hidden = state.approvals.size > 0;
    $('count-approvals').textContent = open ? String(open) : '';
  }

  function callItem(row) {
    const { workflowId, call } = row;
    const expired = call.expiresAtMs <= now();
    const status = expired ? 'expired' : call.state;
    const sig = JSON.stringify([status, call.holdUntilMs, call.expiresAtMs, call.view && call.view.digest]);
    return { kind: 'call', workflowId, callId: call.callId, data: row, sig, build: () => callCard(row, status) };
  }

  function cardHeader(tool, id, status) {
    return el(
      'header',
      {},
      shown('strong', tool, { class: 'tool' }),
      idCode(id),
      el('span', { class: `badge ${status}`, text: status }),
    );
  }

  function callCard(row, status) {
    const { workflowId, call } = row;
    return el(
      'article',
      { class: 'card', 'data-call': call.callId, 'data-workflow': workflowId, 'data-state': status },
      cardHeader(call.tool, call.callId, status),
      el(
        'p',
        { class: 'asked' },
        'Asked by workflow ',
        idCode(workflowId),
        `, turn ${call.turn}, tool `,
        shown('span', call.tool),
      ),
      approvalControls(row, status),
      el(
        'p',
        { class: 'on-approve' },
        'Approve: the call runs once more, with exactly these arguments. Deny: it stops, and the model reads your reason.',
      ),
      shown('p', call.message, { class: 'message' }),
      call.view
        ? viewTable(call.view, { workflowId, callId: call.callId })
        : el('p', {
            class: 'error',
            text: 'The arguments cannot be shown (the worker did not send them, or they are not what the digest names); this call cannot be approved here.',
          }),
      el(
        'dl',
        {},
        el('dt', { text: 'Operation' }),
        el('dd', {}, idCode(call.operationId)),
        el('dt', { text: 'Waiting since' }),
        el('dd', {}, `${when(call.sinceMs)} (`, clock('since', call.sinceMs), ')'),
        el('dt', { text: 'Expires' }),
        el('dd', {}, `${when(call.expiresAtMs)} (`, clock('until', call.expiresAtMs), ')'),
        el('dt', { text: 'Argument digest' }),
        el('dd', {}, el('code', { class: 'digest', text: call.argsDigest })),
      ),
    );
  }

  function approvalControls(row, status) {
    const { workflowId, call } = row;
    const key = callKey(workflowId, call.callId);
    if (status === 'expired')
      return el('p', {
        class: 'note controls',
        text: 'This request expired: nobody decided, and it can no longer be approved.',
      });
    if (status === 'approved') {
      return el(
        'div',
        { class: 'controls' },
        el('span', {}, 'Approved; the call runs ', clock('hold', call.holdUntilMs || now())),
        decides({ class: 'deny', text: 'Revoke' }, () =>
          post('/api/approvals/revoke', { workflowId, callId: call.callId }, 'Revoked'),
        ),
      );
    }
    const reason = kept(`${key}\u0000reason`, {
      placeholder: 'Reason (the model reads it on a deny)',
      'aria-label': 'Reason',
    });
    const decide = (approved) =>
      post(
        '/api/approvals/decide',
        {
          workflowId,
          callId: call.callId,
          argsDigest: call.argsDigest,
          ...(call.view ? { viewDigest: call.view.digest } : {}),
          approved,
          reason: reason.value,
        },
        approved ? 'Approved' : 'Denied',
      );
    return el(
      'div',
      { class: 'controls' },
      reason,
      call.view ? decides({ class: 'approve', text: 'Approve' }, () => decide(true)) : null,
      decides({ class: 'deny', text: 'Deny' }, () => decide(false)),
    );
  }

  /** A run no worker answers for: its call cards turn blind in place; a run not shown yet gets a card of its own. */
  function blindItems(w) {
    const mine = [...state.approvals].filter(([, c]) => c.workflowId === w.workflowId && c.kind === 'call' && !c.done);
    if (mine.length === 0) return [{ key: `w\u0000${w.workflowId}`, ...blindItem({ kind: 'run' }, w) }];
    return mine.map(([key, c]) => ({ key, ...blindItem(c, w) }));
  }

  function blindItem(card, w) {
    const sig = JSON.stringify(['blind', w.blind]);
    const build = () =>
      el(
        'article',
        {
          class: 'card',
          'data-workflow': w.workflowId,
          'data-call': card.kind === 'call' ? card.callId : undefined,
          'data-state': 'blind',
        },
        cardHeader(w.tool || 'tool unknown', card.kind === 'call' ? card.callId : w.workflowId, 'blind'),
        el('p', { class: 'asked' }, 'Asked by workflow ', idCode(w.workflowId)),
        shown('p', w.blind, { class: 'blind' }),
        el('p', { class: 'note', text: 'Nothing can be approved until a worker answers again.' }),
      );
    return { kind: card.kind, workflowId: w.workflowId, callId: card.callId, data: card.data, sig, build };
  }

  /** A card whose call left the feed: it stays, and says what became of it (the run's ledger). */
  async function departed(card) {
    if (!card || card.done || card.kind === 'batch') {
      if (card && card.kind === 'batch' && !card.done) closeBatch(card);
      return;
    }
    card.done = true;
    if (card.kind !== 'call')
      return collapse(
        card,
        'decided',
        'A worker answers again, or the run waits no more: its calls, if any, are below.',
      );
    // A card the page already shows expired stays so while its ledger is read (no flicker back to "decided").
    if (card.el.dataset.state !== 'expired') collapse(card, 'decided', 'No longer waiting: looking up who decided…');
    const r = await api(`/api/decided?${query({ workflowId: card.workflowId })}`);
    const entry = r.ok && Array.isArray(r.data) && r.data.filter((e) => e.callId === card.callId).pop();
    collapse(
      card,
      entry && entry.state === 'expired' ? 'expired' : 'decided',
      entry ? outcomeText(entry) : 'No longer waiting (decided elsewhere).',
    );
  }

  function outcomeText(entry) {
    const d = entry.decision;
    if (entry.state === 'expired') return `Expired at ${at(entry.expiresAtMs)}: nobody decided.`;
    if (entry.state === 'revoked') return `Revoked by ${entry.revoked.by} at ${at(entry.revoked.atMs)}`;
    if (d) return `${d.approved ? 'Approved' : 'Denied'} by ${d.by} at ${at(d.atMs)}`;
    return `No longer waiting (${entry.state}).`;
  }

  /** Replaces a card's content with one line, keeping its place and height. */
  function collapse(card, status, text) {
    const data = card.data && card.data.call;
    const next = el(
      'article',
      { class: 'card collapsed', 'data-call': card.callId, 'data-workflow': card.workflowId, 'data-state': status },
      cardHeader(data ? data.tool : '', card.callId || card.workflowId, status),
      shown('p', text, { class: 'decided' }),
    );
    rebuild(card, next);
    counts();
    settle();
  }

  // ---- the view of the arguments (operator/desk/human-view.ts) ----
  function pathText(path) {
    return path
      .map((p, i) => {
        if (typeof p === 'number') return `[${p}]`;
        if (/^[A-Za-z_$][\w$]*$/.test(p)) return i === 0 ? p : `.${p}`;
        return `[${JSON.stringify(p)}]`;
      })
      .join('');
  }
  const thousands = (n) => n.toLocaleString('en-US');

  function viewTable(view, where) {
    const body = el('tbody');
    const openPart = async (fold) => {
      const ref = `${view.digest}\u0000${fold}`;
      if (!state.opened.has(ref)) {
        const r = await api(`/api/part?${query({ ...where, fold })}`);
        if (!r.ok) return answer(`Could not open: ${r.data.error}`, false);
        state.opened.set(ref, r.data);
      }
      fill();
      settle();
    };
    const fill = () => {
      const rows = [];
      for (const row of view.rows) {
        const part = row.fold && state.opened.get(`${view.digest}\u0000${row.fold.id}`);
        if (row.fold && row.fold.rows !== undefined) {
          if (part) rows.push(...part.rows.map((r) => viewRow(r)));
          else
            rows.push(
              el(
                'tr',
                { class: 'more' },
                el('td', { colSpan: 2 }, foldButton(`+ ${thousands(row.fold.rows)} more fields: open`, row.fold.id)),
              ),
            );
        } else rows.push(viewRow(part ? { ...row, text: part.text, fold: undefined } : row));
      }
      body.replaceChildren(...rows);
    };
    const foldButton = (text, fold) =>
      el('button', { type: 'button', class: 'fold', text, onclick: () => void openPart(fold) });
    const viewRow = (row) => {
      const p = escapeHidden(pathText(row.path));
      const value = row.masked
        ? el(
            'td',
            { class: 'value' },
            el('span', {
              class: 'masked',
              text: `masked credential ${escapeHidden(row.masked.field)} (${row.masked.chars} characters)`,
            }),
          )
        : shown('td', row.text, { class: 'value' });
      if (row.fold && row.fold.chars !== undefined)
        value.append(foldButton(`+ ${thousands(row.fold.chars)} more characters: open`, row.fold.id));
      return el('tr', { 'data-path': p }, el('th', { text: p || '(value)' }), value);
    };
    fill();
    return el('table', { class: 'view' }, body);
  }

  // ---- batches: one turn's waiting calls, each with its facts, and the totals ----
  const AMOUNT = /amount|total|sum|price|cents/i;
  function batchesOf(workflowId, calls) {
    const turns = new Map();
    for (const row of calls) {
      if (row.call.state !== 'waiting' || row.call.expiresAtMs <= now() || !row.call.view) continue;
      if (!turns.has(row.call.turn)) turns.set(row.call.turn, []);
      turns.get(row.call.turn).push(row);
    }
    return [...turns.entries()]
      .filter(([, rows]) => rows.length > 1)
      .map(([turn, rows]) => {
        const ids = rows.map((r) => r.call.callId);
        return {
          key: `b\u0000${workflowId}\u0000${turn}\u0000${ids.join('\u0000')}`,
          kind: 'batch',
          workflowId,
          data: rows,
          sig: 'batch',
          build: () => batchCard(workflowId, turn, rows),
        };
      });
  }

  function factsOf(view) {
    const facts = view.rows
      .filter((r) => r.path.length > 0)
      .slice(0, 6)
      .map((r) => `${escapeHidden(pathText(r.path))}: ${r.masked ? 'masked' : escapeHidden(r.text)}`);
    return facts.join(' · ') + (view.rows.length > 6 ? ` · (+${view.rows.length - 6} more)` : '');
  }

  function totalsOf(rows) {
    const sums = new Map();
    for (const { call } of rows) {
      for (const r of call.view.rows) {
        const last = r.path[r.path.length - 1];
        const n = Number(r.text);
        if (typeof last === 'string' && AMOUNT.test(last) && r.text !== undefined && Number.isFinite(n)) {
          const p = escapeHidden(pathText(r.path));
          sums.set(p, (sums.get(p) || 0) + n);
        }
      }
    }
    const parts = [...sums].map(([p, n]) => `${p} ${n}`);
    return `Totals of ${rows.length} calls: ${parts.length ? parts.join(', ') : 'no amounts'}`;
  }

  function batchCard(workflowId, turn, rows) {
    const calls = rows.map((r) => ({
      callId: r.call.callId,
      argsDigest: r.call.argsDigest,
      viewDigest: r.call.view.digest,
    }));
    return el(
      'section',
      { class: 'batch', 'data-workflow': workflowId, 'data-turn': turn },
      el('h3', {}, `Turn ${turn} of workflow `, idCode(workflowId), `: ${rows.length} calls wait together`),
      el(
        'table',
        {},
        el(
          'tbody',
          {},
          ...rows.map((r) =>
            el(
              'tr',
              { 'data-call': r.call.callId },
              el('td', {}, idCode(r.call.callId)),
              shown('td', r.call.tool),
              el('td', { text: factsOf(r.call.view) }),
            ),
          ),
        ),
      ),
      el('p', { class: 'totals', text: totalsOf(rows) }),
      el(
        'div',
        { class: 'controls' },
        decides({ class: 'approve approve-batch', text: `Approve these ${rows.length} calls` }, () =>
          post('/api/approvals/batch', { workflowId, calls, approved: true }, 'Approved'),
        ),
      ),
    );
  }

  function closeBatch(card) {
    card.done = true;
    const next = el(
      'section',
      { class: 'batch collapsed', 'data-workflow': card.workflowId },
      el('p', { class: 'decided', text: 'This batch changed or was decided: nothing left to approve here.' }),
    );
    rebuild(card, next);
  }

  /** Sends a change, shows the answer; a decision taken collapses its card in place with who and when. */
  async function post(path, body, done) {
    clearAnswer();
    const r = await api(path, body);
    if (!r.ok) return answer(`Refused: ${r.data.error || `HTTP ${r.status}`}`, false);
    answer(`${done}: ${describe(r.data.result)}`, true);
    const grants = Array.isArray(r.data.result) ? r.data.result : [r.data.result];
    for (const g of grants) {
      const card = g && g.callId && state.approvals.get(callKey(body.workflowId, g.callId));
      if (card && g.by && path !== '/api/approvals/revoke') {
        card.done = true;
        collapse(card, 'decided', `${g.approved ? 'Approved' : 'Denied'} by ${g.by} at ${at(now())}`);
      }
    }
  }

  function describe(result) {
    const one = (g) =>
      `${g.callId} — recorded for ${g.by}${g.identity ? ` (identity ${g.identity})` : ''}${g.signed ? ', signed' : ''}`;
    if (Array.isArray(result)) return result.map(one).join('; ');
    if (result && result.callId && result.by) return one(result);
    if (result && result.operationId) return `${result.operationId} — decision taken`;
    if (result && result.state === 'revoked') return `${result.callId} — revoked by ${result.revoked.by}`;
    return 'done';
  }

  // ---- reviews ----
  function renderReviews(reviews) {
    const items = reviews.map((r) => ({
      key: `r\u0000${r.operationId}`,
      kind: 'review',
      workflowId: r.workflowId,
      data: r,
      sig: JSON.stringify([
        r.blind,
        r.case && [r.case.status, r.case.allowed, r.case.lookups.length, r.case.view && r.case.view.digest],
      ]),
      build: () => (r.case ? reviewCard(r) : blindReview(r)),
    }));
    const left = place(state.reviews, $('reviews-list'), items);
    for (const key of left) {
      const card = state.reviews.get(key);
      if (card.done) continue;
      card.done = true;
      void reviewDeparted(card);
    }
    const open = [...state.reviews.values()].filter((c) => !c.done).length;
    $('reviews-empty').hidden = state.reviews.size > 0;
    $('count-reviews').textContent = open ? String(open) : '';
  }

  async function reviewDeparted(card) {
    const r = await api(`/api/decided?${query({ operationId: card.data.operationId })}`);
    const d = r.ok && r.data.decision;
    const text = d
      ? `${CHOICES[d.decision] || d.decision} by ${d.by} at ${at(d.atMs)}`
      : 'No longer waiting for review.';
    rebuild(
      card,
      el(
        'article',
        { class: 'card collapsed', 'data-operation': card.data.operationId, 'data-state': 'decided' },
        cardHeader(card.data.tool, card.data.operationId, 'decided'),
        shown('p', text, { class: 'decided' }),
      ),
    );
    settle();
  }

  function blindReview(r) {
    return el(
      'article',
      { class: 'card', 'data-operation': r.operationId, 'data-state': 'blind' },
      cardHeader(r.tool, r.operationId, 'blind'),
      shown('p', r.blind, { class: 'blind' }),
    );
  }

  function reviewCard(r) {
    const c = r.case;
    const f = c.failure || {};
    const facts = [f.class, f.reason, f.phase, f.status && `HTTP ${f.status}`, f.code].filter(Boolean).join(' · ');
    return el(
      'article',
      { class: 'card', 'data-operation': c.operationId, 'data-state': c.status },
      cardHeader(c.tool, c.operationId, 'awaiting review'),
      reviewControls(r),
      shown('p', c.message, { class: 'message' }),
      el(
        'dl',
        {},
        el('dt', { text: 'Agent workflow' }),
        el('dd', {}, r.agentWorkflowId ? idCode(r.agentWorkflowId, 'agent-workflow') : '—'),
        el('dt', { text: 'Reconciliation' }),
        el('dd', {}, idCode(r.workflowId)),
        el('dt', { text: 'Call' }),
        el('dd', {}, idCode(c.callId)),
        el('dt', { text: 'Receiver' }),
        el('dd', {
          class: 'dedup',
          text: c.deduplicates
            ? 'The receiver deduplicates by the idempotency key: a replay cannot apply the write twice.'
            : 'The receiver does not deduplicate: a replay may apply the write twice.',
        }),
        el('dt', { text: 'Waiting since' }),
        el('dd', {}, clock('since', c.awaitingSinceMs || r.sinceMs)),
        el('dt', { text: 'Unknown error' }),
        el('dd', {}, facts, ' ', el('code', { class: 'digest', title: 'fingerprint', text: f.fingerprint || '' })),
      ),
      c.view
        ? viewTable(c.view, { operationId: c.operationId })
        : el('p', { class: 'error', text: 'The arguments cannot be shown.' }),
      c.lookups.length
        ? el('ol', { class: 'lookups' }, ...c.lookups.map(lookupItem))
        : el('p', {
            class: 'no-lookups',
            text: c.canLookUp
              ? 'No lookup has answered yet.'
              : 'No lookup was made: this tool has no way to look the write up.',
          }),
    );
  }

  const lookupItem = (l) =>
    el(
      'li',
      {},
      el('span', { class: `badge ${l.state}`, text: l.state }),
      ` ${when(l.atMs)} `,
      shown('span', l.detail || ''),
    );

  const CHOICES = { mark_applied: 'Mark applied', replay: 'Replay once', abandon: 'Abandon' };
  function reviewControls(r) {
    const c = r.case;
    const key = c.operationId;
    const reason = kept(`${key}\u0000reason`, { placeholder: 'Reason (required)', 'aria-label': 'Reason' });
    const resultRef = kept(`${key}\u0000ref`, {
      placeholder: 'Result reference (for mark applied)',
      'aria-label': 'Result reference',
    });
    const send = (d, extra = {}) =>
      reviewPost({
        operationId: c.operationId,
        decision: d,
        reason: reason.value,
        resultRef: resultRef.value,
        ...extra,
      });
    const risky = !c.deduplicates && (c.allowed || []).includes('replay');
    // Reserved space (hidden, not absent): showing it moves nothing.
    const confirm = el(
      'p',
      { class: 'confirm-risk' },
      `${escapeHidden(c.tool)} does not deduplicate: a replay may send this write a second time. `,
      decides({ class: 'deny', text: 'Replay anyway' }, () =>
        send('replay', { viewDigest: c.view && c.view.digest, confirmRisk: true }),
      ),
    );
    const buttons = (c.allowed || []).map((d) =>
      decides(
        {
          class: d === 'abandon' || (d === 'replay' && risky) ? 'deny' : 'approve',
          'data-decision': d,
          text: CHOICES[d] || d,
        },
        async () => {
          if (d === 'replay' && risky) confirm.classList.add('shown');
          else send(d, d === 'replay' ? { viewDigest: c.view && c.view.digest } : {});
        },
      ),
    );
    return el('div', { class: 'controls' }, reason, resultRef, ...buttons, risky ? confirm : null);
  }

  async function reviewPost(body) {
    clearAnswer();
    const r = await api('/api/reviews/decide', body);
    if (!r.ok) return answer(`Refused: ${r.data.error || `HTTP ${r.status}`}`, false);
    answer(`${CHOICES[body.decision] || body.decision}: ${describe(r.data.result)}`, true);
  }

  // ---- history ----
  async function loadHistory() {
    const r = await api('/api/history');
    if (!r.ok) return answer(`History: ${r.data.error}`, false);
    const rows = r.data.items.map((h) =>
      el(
        'tr',
        { 'data-outcome': h.outcome },
        el('td', { text: when(h.atMs) }),
        el('td', { text: h.kind }),
        el('td', {}, el('span', { class: `badge ${h.outcome}`, text: h.outcome })),
        shown('td', h.by ? `${h.by}${h.identity ? ` (${h.identity})` : ''}` : '—'),
        shown('td', h.tool),
        el('td', {}, idCode(h.subject)),
        el('td', {}, idCode(h.workflowId)),
        shown('td', h.reason || ''),
      ),
    );
    $('history-rows').replaceChildren(...rows);
    $('history-empty').hidden = rows.length > 0;
  }

  /** Keeps waiting times and countdowns current; a call that just expired is rebuilt, in place, as expired. */
  function tick() {
    for (const c of document.querySelectorAll('[data-clock]'))
      c.textContent = clockText(c.dataset.clock, Number(c.dataset.ms));
    let changed = false;
    for (const card of state.approvals.values()) {
      if (card.kind !== 'call' || card.done || card.el.dataset.state !== 'waiting') continue;
      if (card.data.call.expiresAtMs > now()) continue;
      const item = callItem(card.data);
      rebuild(card, item.build());
      card.sig = item.sig;
      changed = true;
    }
    if (changed) {
      counts();
      settle();
    }
  }

  /** Removes the cards that are decided, expired or gone: the operator's own choice, so the guard applies after. */
  function tidy() {
    for (const book of [state.approvals, state.reviews]) {
      for (const [key, card] of book) {
        if (!card.done && card.el.dataset.state !== 'expired') continue;
        card.el.remove();
        book.delete(key);
      }
    }
    counts();
    settle();
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('login-form').addEventListener('submit', (e) => void logIn(e));
    $('logout').addEventListener('click', () => void logOut());
    $('tidy').addEventListener('click', tidy);
    window.addEventListener('hashchange', route);
    window.addEventListener('resize', settle);
    setInterval(tick, 1_000);
    void boot();
  });
})();
