// The desk's page script (docs/approvals.md). Plain browser JavaScript, no build step, loaded from the desk's own
// origin (its Content-Security-Policy allows no inline script). Every value from a run is put in the page as text
// (textContent, text nodes), never as HTML. Every change is a POST with the session's CSRF token.
'use strict';

(() => {
  const state = {
    csrf: '',
    user: null,
    clockOffsetMs: 0,
    snapshot: { approvals: [], reviews: [] },
    /** Calls shown before that left the feed after their expiry: kept, shown as expired (key → row). */
    expired: new Map(),
    /** Calls in the last feed (key → row): one that leaves it at or after its expiry is kept as expired. */
    shown: new Map(),
    /** Typed reasons and result references, by field key, kept across re-renders. */
    inputs: new Map(),
    source: null,
    historyTimer: 0,
  };
  const $ = (id) => document.getElementById(id);
  const now = () => Date.now() + state.clockOffsetMs;

  /** An element with properties (`text` → textContent, `data-*`/`aria-*` → attributes) and children (text nodes). */
  function el(tag, props = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') e.textContent = String(v);
      else if (k === 'class') e.className = v;
      else if (k.startsWith('data-') || k.startsWith('aria-')) e.setAttribute(k, String(v));
      else e[k] = v;
    }
    for (const c of children) if (c !== undefined && c !== null) e.append(c);
    return e;
  }

  async function api(path, body) {
    const init =
      body === undefined
        ? { headers: { accept: 'application/json' } }
        : {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-csrf-token': state.csrf },
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

  // ---- time ----
  function span(ms) {
    const s = Math.max(0, Math.round(ms / 1000));
    if (s < 60) return `${s} s`;
    if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
    if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
    return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  }
  const when = (ms) => new Date(ms).toLocaleString();
  /** A text that `tick` keeps current: `kind` is `since` (waited), `until` (expires) or `hold` (runs). */
  const clock = (kind, ms) => el('span', { 'data-clock': kind, 'data-ms': ms, text: clockText(kind, ms) });
  function clockText(kind, ms) {
    if (kind === 'since') return `${span(now() - ms)} ago`;
    if (kind === 'hold') return ms <= now() ? 'now' : `in ${span(ms - now())}`;
    return ms <= now() ? 'expired' : `in ${span(ms - now())}`;
  }

  // ---- answers and connection ----
  function answer(text, ok) {
    const a = $('answer');
    a.hidden = false;
    a.textContent = text;
    a.dataset.ok = ok ? 'yes' : 'no';
  }
  function connection(stateName, text) {
    const c = $('connection');
    c.dataset.state = stateName;
    c.textContent = text;
  }

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
    state.csrf = data.csrf;
    state.clockOffsetMs = data.nowMs - Date.now();
    if (data.user) return signedIn(data.user, data.via);
    $('login-form').hidden = !data.passwordLogin;
    $('login-proxy').hidden = data.passwordLogin;
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
      state.snapshot = JSON.parse(e.data);
      render();
    });
    source.addEventListener('trouble', (e) =>
      connection('trouble', `live, but Temporal: ${JSON.parse(e.data).message}`),
    );
  }

  function render() {
    const focused = document.activeElement && document.activeElement.dataset.key;
    renderApprovals();
    renderReviews();
    if (focused) {
      const again = document.querySelector(`[data-key="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
  }

  /** A text input whose value survives re-renders. */
  function kept(key, props) {
    const input = el('input', { ...props, value: state.inputs.get(key) || '', 'data-key': key });
    input.addEventListener('input', () => state.inputs.set(key, input.value));
    return input;
  }

  // ---- approvals ----
  function approvalRows() {
    const rows = new Map();
    for (const w of state.snapshot.approvals) {
      for (const call of w.calls) rows.set(`${w.workflowId}\u0000${call.callId}`, { workflowId: w.workflowId, call });
    }
    for (const [key, row] of state.expired) if (!rows.has(key)) rows.set(key, { ...row, gone: true });
    return rows;
  }

  /** The server's expiry timer may fire a moment before this page's clock reaches it, ms. */
  const EXPIRY_SLACK_MS = 3_000;

  function renderApprovals() {
    const rows = approvalRows();
    // A call that left the feed at or after its expiry (whenever the page last saw it) stays on the page, marked
    // expired, for 10 minutes; one decided or revoked before its expiry just leaves.
    for (const [key, row] of state.shown) {
      const left = !rows.has(key) || rows.get(key).gone;
      if (left && row.call.expiresAtMs !== undefined && row.call.expiresAtMs <= now() + EXPIRY_SLACK_MS) {
        state.expired.set(key, row);
        rows.set(key, { ...row, gone: true });
      }
    }
    state.shown = new Map([...rows].filter(([, row]) => !row.gone));
    for (const [key, row] of rows) {
      if (row.gone && row.call.expiresAtMs < now() - 600_000) state.expired.delete(key);
    }
    for (const key of state.expired.keys()) {
      const row = rows.get(key);
      if (row && !row.gone) state.expired.delete(key);
    }
    const groups = new Map();
    for (const row of rows.values()) {
      const g = `${row.workflowId}\u0000${row.call.turn}`;
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g).push(row);
    }
    const list = $('approvals-list');
    list.replaceChildren(...[...groups.values()].map(turnCard));
    const open = [...rows.values()].filter((r) => !isExpired(r)).length;
    $('approvals-empty').hidden = rows.size > 0;
    $('count-approvals').textContent = open ? String(open) : '';
  }

  const isExpired = (row) => row.gone || row.call.expiresAtMs <= now();

  function turnCard(rows) {
    const { workflowId, call } = rows[0];
    const waiting = rows.filter((r) => !isExpired(r) && r.call.state === 'waiting');
    const batch =
      waiting.length > 1
        ? el('button', {
            class: 'approve',
            type: 'button',
            text: `Approve all ${waiting.length} calls of turn ${call.turn}`,
            onclick: () => void decideBatch(workflowId, waiting),
          })
        : null;
    return el(
      'section',
      { class: 'turn' },
      el('h3', {}, 'Workflow ', el('code', { text: workflowId }), ` · turn ${call.turn}`),
      batch,
      ...rows.map(callCard),
    );
  }

  function callCard(row) {
    const { workflowId, call } = row;
    const expired = isExpired(row);
    const status = expired ? 'expired' : call.state;
    const key = `${workflowId}\u0000${call.callId}`;
    return el(
      'article',
      { class: 'card', 'data-call': call.callId, 'data-state': status },
      el(
        'header',
        {},
        el('strong', { class: 'tool', text: call.tool }),
        el('code', { text: call.callId }),
        el('span', { class: `badge ${status}`, text: status }),
      ),
      el('p', { class: 'message', text: call.message }),
      el(
        'dl',
        {},
        el('dt', { text: 'Operation' }),
        el('dd', {}, el('code', { text: call.operationId })),
        el('dt', { text: 'Waiting since' }),
        el('dd', {}, `${when(call.sinceMs)} (`, clock('since', call.sinceMs), ')'),
        el('dt', { text: 'Expires' }),
        el('dd', {}, `${when(call.expiresAtMs)} (`, clock('until', call.expiresAtMs), ')'),
        el('dt', { text: 'Argument digest' }),
        el('dd', {}, el('code', { class: 'digest', text: call.argsDigest })),
      ),
      el('pre', { class: 'args', text: JSON.stringify(call.argsPreview, null, 2) }),
      approvalControls(workflowId, call, status, key),
    );
  }

  function approvalControls(workflowId, call, status, key) {
    if (status === 'expired')
      return el('p', { class: 'note', text: 'This request expired: it can no longer be approved.' });
    if (status === 'approved') {
      return el(
        'div',
        { class: 'controls' },
        el('span', {}, 'Approved; the call runs ', clock('hold', call.holdUntilMs || now())),
        el('button', {
          type: 'button',
          class: 'deny',
          text: 'Revoke',
          onclick: () => void post('/api/approvals/revoke', { workflowId, callId: call.callId }, 'Revoked'),
        }),
      );
    }
    const reason = kept(`${key}\u0000reason`, { placeholder: 'Reason (optional)', 'aria-label': 'Reason' });
    const decide = (approved) =>
      post(
        '/api/approvals/decide',
        { workflowId, callId: call.callId, argsDigest: call.argsDigest, approved, reason: reason.value },
        approved ? 'Approved' : 'Denied',
      );
    return el(
      'div',
      { class: 'controls' },
      reason,
      el('button', { type: 'button', class: 'approve', text: 'Approve', onclick: () => void decide(true) }),
      el('button', { type: 'button', class: 'deny', text: 'Deny', onclick: () => void decide(false) }),
    );
  }

  async function decideBatch(workflowId, rows) {
    const calls = rows.map((r) => ({ callId: r.call.callId, argsDigest: r.call.argsDigest }));
    await post('/api/approvals/batch', { workflowId, calls, approved: true }, 'Approved');
  }

  /** Sends a change and shows the server's answer. */
  async function post(path, body, done) {
    const a = $('answer');
    a.hidden = true;
    delete a.dataset.ok;
    for (const b of document.querySelectorAll('main button')) b.disabled = true;
    const r = await api(path, body);
    for (const b of document.querySelectorAll('main button')) b.disabled = false;
    if (!r.ok) answer(`Refused: ${r.data.error || `HTTP ${r.status}`}`, false);
    else answer(`${done}: ${describe(r.data.result)}`, true);
    return r;
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
  function renderReviews() {
    const list = $('reviews-list');
    const reviews = state.snapshot.reviews;
    list.replaceChildren(...reviews.map(reviewCard));
    $('reviews-empty').hidden = reviews.length > 0;
    $('count-reviews').textContent = reviews.length ? String(reviews.length) : '';
  }

  function reviewCard(r) {
    const c = r.case;
    const f = c.failure || {};
    const facts = [f.class, f.reason, f.phase, f.status && `HTTP ${f.status}`, f.code].filter(Boolean).join(' · ');
    return el(
      'article',
      { class: 'card', 'data-operation': c.operationId, 'data-state': c.status },
      el(
        'header',
        {},
        el('strong', { class: 'tool', text: c.tool }),
        el('code', { text: c.operationId }),
        el('span', { class: 'badge waiting', text: 'awaiting review' }),
      ),
      el('p', { class: 'message', text: c.message }),
      el(
        'dl',
        {},
        el('dt', { text: 'Workflow' }),
        el('dd', {}, el('code', { text: r.workflowId })),
        el('dt', { text: 'Call' }),
        el('dd', {}, el('code', { text: c.callId })),
        el('dt', { text: 'Waiting since' }),
        el('dd', {}, clock('since', c.awaitingSinceMs || r.sinceMs)),
        el('dt', { text: 'Attempts' }),
        el('dd', { text: `${c.lookups.length} lookups, ${c.replays} replays` }),
        el('dt', { text: 'Unknown error' }),
        el('dd', {}, facts, ' ', el('code', { class: 'digest', title: 'fingerprint', text: f.fingerprint || '' })),
      ),
      el('pre', { class: 'args', text: JSON.stringify(c.argsSummary, null, 2) }),
      el('ol', { class: 'lookups' }, ...c.lookups.map(lookupItem)),
      reviewControls(c),
    );
  }

  const lookupItem = (l) =>
    el('li', {}, el('span', { class: `badge ${l.state}`, text: l.state }), ` ${when(l.atMs)} `, l.detail || '');

  const CHOICES = { mark_applied: 'Mark applied', replay: 'Replay once', abandon: 'Abandon' };
  function reviewControls(c) {
    const key = c.operationId;
    const reason = kept(`${key}\u0000reason`, { placeholder: 'Reason (required)', 'aria-label': 'Reason' });
    const resultRef = kept(`${key}\u0000ref`, {
      placeholder: 'Result reference (for mark applied)',
      'aria-label': 'Result reference',
    });
    const buttons = (c.allowed || []).map((d) =>
      el('button', {
        type: 'button',
        class: d === 'abandon' ? 'deny' : 'approve',
        'data-decision': d,
        text: CHOICES[d] || d,
        onclick: () =>
          void post(
            '/api/reviews/decide',
            { operationId: c.operationId, decision: d, reason: reason.value, resultRef: resultRef.value },
            CHOICES[d] || d,
          ),
      }),
    );
    return el('div', { class: 'controls' }, reason, resultRef, ...buttons);
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
        el('td', { text: h.by ? `${h.by}${h.identity ? ` (${h.identity})` : ''}` : '—' }),
        el('td', { text: h.tool }),
        el('td', {}, el('code', { text: h.subject })),
        el('td', {}, el('code', { text: h.workflowId })),
        el('td', { text: h.reason || '' }),
      ),
    );
    $('history-rows').replaceChildren(...rows);
    $('history-empty').hidden = rows.length > 0;
  }

  /** Keeps waiting times and countdowns current; a call that just expired is redrawn as expired. */
  function tick() {
    let crossed = false;
    for (const c of document.querySelectorAll('[data-clock]')) {
      const text = clockText(c.dataset.clock, Number(c.dataset.ms));
      if (text === 'expired' && c.textContent !== 'expired') crossed = true;
      c.textContent = text;
    }
    if (crossed) render();
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('login-form').addEventListener('submit', (e) => void logIn(e));
    $('logout').addEventListener('click', () => void logOut());
    window.addEventListener('hashchange', route);
    setInterval(tick, 1_000);
    void boot();
  });
})();
