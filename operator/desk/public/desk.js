// The desk's page script (docs/approvals.md). Plain browser JavaScript, no build step, loaded from the desk's own
// origin (its Content-Security-Policy allows no inline script). Every value from a run is put in the page as text
// (textContent), never as HTML, with control and bidirectional characters shown escaped and marked. Every change is
// a POST with the session's CSRF token.
//
// The live feed lists the waiting runs (visibility); a run's calls or case are read when its card comes into view
// (every run's, when at most EAGER wait), again every REFRESH_MS while in view, and when this desk decided on it.
//
// The page never moves a decision under the pointer: cards are kept by key and updated in place; a new card is
// added at the end; a card that is decided, expires or leaves stays where it was, at its height, saying what became
// of it; a decision button that appeared or moved less than GUARD_MS ago ignores a click.
'use strict';

(() => {
  /** A decision button that appeared or moved this recently (ms) ignores a click. */
  const GUARD_MS = 700;
  const [EAGER, REFRESH_MS] = [24, 2_000];
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
    /** The feed's last list; each run's details read (`/api/details`) by workflow id; cards in view; reads under way. */
    last: { approvals: [], reviews: [] },
    details: new Map(),
    inView: new Set(),
    reading: new Set(),
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
  /** A definition list of `[term, description element or its children]` pairs. */
  const terms = (pairs) =>
    el('dl', {}, ...pairs.flatMap(([t, d]) => [el('dt', { text: t }), d instanceof Node ? d : el('dd', {}, ...d)]));

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
  const answer = (text, ok) =>
    (Object.assign($('answer'), { hidden: false, textContent: text }).dataset.ok = ok ? 'yes' : 'no');
  /** Hides the last answer, so the next one is the answer to this change. */
  const clearAnswer = () => delete Object.assign($('answer'), { hidden: true }).dataset.ok;
  const connection = (name, text) => (Object.assign($('connection'), { textContent: text }).dataset.state = name);

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
      const [x, y] = [r.x + window.scrollX, r.y + window.scrollY];
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
        if (was && performance.now() - was.at >= GUARD_MS) return void run();
        answer('Nothing was sent: the page changed just before your click. Look again, then click.', false);
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
    if (!ok) return connection('offline', data.error || 'offline');
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
    $('login-error').textContent = r.ok ? '' : r.data.error || `HTTP ${r.status}`;
    if (!r.ok) return;
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
    source.addEventListener('decided', (e) => {
      const { workflowId } = JSON.parse(e.data);
      if (state.details.has(workflowId)) void read(workflowId);
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
        const before = item.at && book.get(item.at);
        if (before && before.el.isConnected) before.el.before(node);
        else added.append(node);
        watcher.observe(node);
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
    watcher.unobserve(card.el);
    state.inView.delete(card.el);
    card.el.replaceWith(next);
    card.el = next;
    watcher.observe(next);
  }

  /** Renders the feed's list `snap` (or the last one again) with the details read so far. */
  function render(snap) {
    if (snap) state.last = snap;
    const listed = listedIds();
    for (const id of state.details.keys()) if (!listed.has(id)) state.details.delete(id);
    renderApprovals(state.last.approvals);
    renderReviews(state.last.reviews);
    settle();
    if (listed.size <= EAGER) for (const id of listed) if (!state.details.has(id)) void read(id);
  }

  // ---- a run's details, read lazily ----
  const listedIds = () => new Set([...state.last.approvals, ...state.last.reviews].map((w) => w.workflowId));
  const watcher = new IntersectionObserver(
    (entries) => {
      for (const { target, isIntersecting } of entries) {
        if (!isIntersecting) state.inView.delete(target);
        else if (state.inView.add(target) && !state.details.has(target.dataset.workflow)) read(target.dataset.workflow);
      }
    },
    { rootMargin: '50% 0px' },
  );
  /** Reads a listed run's calls or case (its card turns blind, or leaves, by what the answer says). */
  async function read(workflowId) {
    if (!listedIds().has(workflowId) || state.reading.has(workflowId)) return;
    state.reading.add(workflowId);
    const r = await api(`/api/details?${query({ workflowId })}`);
    state.reading.delete(workflowId);
    if (!r.ok && r.status !== 404) return; // kept as read before: the connection line says why
    state.details.set(workflowId, r.ok ? r.data : {});
    render();
  }
  /** Reads again the runs in view (every listed run, when at most EAGER wait). */
  function refresh() {
    const listed = listedIds();
    const ids = listed.size <= EAGER ? listed : [...state.inView].map((e) => e.dataset.workflow);
    for (const id of new Set(ids)) if (state.details.has(id)) void read(id);
  }

  // ---- approvals ----
  const callKey = (workflowId, callId) => `c\u0000${workflowId}\u0000${callId}`;

  /** A run not read yet shows as one card from the list; its calls take that card's place. */
  function renderApprovals(workflows) {
    const [items, replaced] = [[], new Set()];
    for (const w of workflows) {
      const [d, at] = [state.details.get(w.workflowId), `w\u0000${w.workflowId}`];
      if (!d) items.push({ key: at, ...runItem({ kind: 'run' }, w, 'waiting', 'Reading its calls…') });
      else if (d.blind) items.push(...blindItems({ ...w, blind: d.blind }));
      else if (d.calls && d.calls.length) {
        const calls = d.calls.map((call) => ({ workflowId: w.workflowId, call }));
        const mine = calls.map((row) => ({ key: callKey(w.workflowId, row.call.callId), ...callItem(row) }));
        items.push(...[...mine, ...batchesOf(w.workflowId, calls)].map((item) => ({ ...item, at })));
        replaced.add(at);
      }
    }
    const left = place(state.approvals, $('approvals-list'), items);
    for (const key of left) {
      if (!replaced.has(key)) void departed(state.approvals.get(key));
      else {
        state.approvals.get(key).el.remove();
        state.approvals.delete(key);
      }
    }
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
      terms([
        ['Operation', [idCode(call.operationId)]],
        ['Waiting since', [`${when(call.sinceMs)} (`, clock('since', call.sinceMs), ')']],
        ['Expires', [`${when(call.expiresAtMs)} (`, clock('until', call.expiresAtMs), ')']],
        ['Argument digest', [el('code', { class: 'digest', text: call.argsDigest })]],
      ]),
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
    const body = { workflowId, callId: call.callId, argsDigest: call.argsDigest, viewDigest: call.view?.digest };
    const decide = (approved) =>
      post('/api/approvals/decide', { ...body, approved, reason: reason.value }, approved ? 'Approved' : 'Denied');
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
    if (mine.length === 0) return [{ key: `w\u0000${w.workflowId}`, ...runItem({ kind: 'run' }, w, 'blind', w.blind) }];
    return mine.map(([key, c]) => ({ key, ...runItem(c, w, 'blind', w.blind) }));
  }

  /** A card from the list alone: the run's calls not read yet (`waiting`), or unreadable (`blind`, saying why). */
  function runItem(card, w, status, line) {
    const sig = JSON.stringify([status, line]);
    const build = () =>
      el(
        'article',
        { class: 'card', 'data-workflow': w.workflowId, 'data-call': card.callId, 'data-state': status },
        cardHeader(w.tool || 'tool unknown', card.callId || w.workflowId, status),
        el('p', { class: 'asked' }, 'Asked by workflow ', idCode(w.workflowId)),
        shown('p', line, { class: status === 'blind' ? 'blind' : 'note' }),
        status === 'blind' && el('p', { class: 'note', text: 'Nothing can be approved until a worker answers again.' }),
      );
    return { kind: card.kind, workflowId: w.workflowId, callId: card.callId, data: card.data, sig, build };
  }

  /** A card whose call left the feed: it stays, and says what became of it (the run's ledger). */
  async function departed(card) {
    if (!card || card.done) return;
    if (card.kind === 'batch') return closeBatch(card);
    card.done = true;
    if (card.kind !== 'call') return collapse(card, 'decided', 'No longer waiting.');
    // A card the page already shows expired stays so while its ledger is read (no flicker back to "decided").
    if (card.el.dataset.state !== 'expired') collapse(card, 'decided', 'No longer waiting: looking up who decided…');
    const r = await api(`/api/decided?${query({ workflowId: card.workflowId })}`);
    const entry = r.ok && Array.isArray(r.data) && r.data.filter((e) => e.callId === card.callId).pop();
    const status = entry && entry.state === 'expired' ? 'expired' : 'decided';
    collapse(card, status, entry ? outcomeText(entry) : 'No longer waiting (decided elsewhere).');
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
    const [d, review] = [card.data || {}, card.kind === 'review'];
    const next = el(
      'article',
      { class: 'card collapsed', 'data-call': card.callId, 'data-operation': review ? d.operationId : undefined },
      cardHeader(
        review ? d.tool : d.call ? d.call.tool : '',
        review ? d.operationId : card.callId || card.workflowId,
        status,
      ),
      shown('p', text, { class: 'decided' }),
    );
    Object.assign(next.dataset, { workflow: card.workflowId, state: status });
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
    const calls = rows.map(({ call: c }) => ({
      callId: c.callId,
      argsDigest: c.argsDigest,
      viewDigest: c.view.digest,
    }));
    const row = ({ call: c }) =>
      el(
        'tr',
        { 'data-call': c.callId },
        el('td', {}, idCode(c.callId)),
        shown('td', c.tool),
        el('td', { text: factsOf(c.view) }),
      );
    return el(
      'section',
      { class: 'batch', 'data-workflow': workflowId, 'data-turn': turn },
      el('h3', {}, `Turn ${turn} of workflow `, idCode(workflowId), `: ${rows.length} calls wait together`),
      el('table', {}, el('tbody', {}, ...rows.map(row))),
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
  function renderReviews(listed) {
    const reviews = listed.map((l) => ({
      ...l,
      ...state.details.get(l.workflowId),
      read: state.details.has(l.workflowId),
    }));
    const items = reviews
      .filter((r) => !r.read || r.blind || (r.case && r.case.status === 'awaiting_review'))
      .map((r) => ({
        key: `r\u0000${r.operationId}`,
        kind: 'review',
        workflowId: r.workflowId,
        data: r,
        sig: JSON.stringify([
          r.read,
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
    collapse(
      card,
      'decided',
      d ? `${CHOICES[d.decision] || d.decision} by ${d.by} at ${at(d.atMs)}` : 'No longer waiting for review.',
    );
  }

  /** A case not read yet (`waiting`), or unreadable (`blind`). */
  function blindReview(r) {
    const status = r.blind ? 'blind' : 'waiting';
    return el(
      'article',
      { class: 'card', 'data-operation': r.operationId, 'data-workflow': r.workflowId, 'data-state': status },
      cardHeader(r.tool, r.operationId, status),
      shown('p', r.blind || 'Reading the case…', { class: r.blind ? 'blind' : 'note' }),
    );
  }

  const DEDUP = 'deduplicates by the idempotency key: a replay cannot apply the write twice.';
  const NO_DEDUP = 'does not deduplicate: a replay may apply the write twice.';
  function reviewCard(r) {
    const c = r.case;
    const f = c.failure || {};
    const facts = [f.class, f.reason, f.phase, f.status && `HTTP ${f.status}`, f.code].filter(Boolean).join(' · ');
    return el(
      'article',
      { class: 'card', 'data-operation': c.operationId, 'data-workflow': r.workflowId, 'data-state': c.status },
      cardHeader(c.tool, c.operationId, 'awaiting review'),
      reviewControls(r),
      shown('p', c.message, { class: 'message' }),
      terms([
        ['Agent workflow', [r.agentWorkflowId ? idCode(r.agentWorkflowId, 'agent-workflow') : '—']],
        ['Reconciliation', [idCode(r.workflowId)]],
        ['Call', [idCode(c.callId)]],
        ['Receiver', el('dd', { class: 'dedup', text: `The receiver ${c.deduplicates ? DEDUP : NO_DEDUP}` })],
        ['Waiting since', [clock('since', c.awaitingSinceMs || r.sinceMs)]],
        [
          'Unknown error',
          [facts, ' ', el('code', { class: 'digest', title: 'fingerprint', text: f.fingerprint || '' })],
        ],
      ]),
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
      post(
        '/api/reviews/decide',
        { operationId: c.operationId, decision: d, reason: reason.value, resultRef: resultRef.value, ...extra },
        CHOICES[d] || d,
      );
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
    setInterval(refresh, REFRESH_MS);
    void boot();
  });
})();
