// The Pilothouse embed SDK: one script tag on a site gives its visitors an agent that
// acts on the live page. It opens a runtime session with the site's public key, sends
// the visitor's messages as commands (strict epoch/seq, one silent retry on a stale
// conflict, a transparent token refresh), follows the session on its stream (polling
// /state when the stream is unavailable), and performs the planner's page steps with
// the same page agent the cloud browser's pages carry. No eval, no inline script or
// style: it works under a strict Content-Security-Policy. docs/embed.md.
import { agentApi } from '../../pageagent/src/api.js';
import { createChat } from './chat.js';
import { askConsent, askShare } from './consent.js';

const VERSION = '1.0.0';
const currentScript = document.currentScript;

function storage() {
  try {
    return window.sessionStorage;
  } catch (e) {
    return null; // storage blocked: the session lives as long as the page
  }
}

function randomId(prefix) {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return prefix + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// Whether a command's refusal may pass by itself (a retry may succeed): no answer, a busy
// or failing server, or a seq or epoch that moved again while we caught up.
function transient(r) {
  if (r.status === 200) return false;
  const code = r.json && r.json.data && r.json.data.code;
  return r.status === 429 || r.status >= 500 || (r.status === 409 && (code === 'stale_seq' || code === 'stale_epoch'));
}

class Runtime {
  constructor(options) {
    this.siteKey = options.siteKey;
    this.siteId = options.siteId;
    this.endpoint = (options.endpoint || '').replace(/\/+$/, '');
    // What the site's page tells about its visitor on the bootstrap open: `context`
    // (data-only hints) and `contextToken` (single use, minted by the site's server).
    this.visitor = {};
    if (options.context && typeof options.context === 'object') this.visitor.context = options.context;
    if (options.contextToken) this.visitor.contextToken = String(options.contextToken);
    this.storeKey = 'pilothouse:' + this.siteId;
    this.listeners = {};
    this.s = null; // {sessionId, token, expiresAt, streamToken, epoch, seq, activeRunId, runStatus, beacon}
    this.handled = new Set();
    this.source = null;
    this.polling = null;
  }

  on(type, fn) {
    (this.listeners[type] = this.listeners[type] || []).push(fn);
  }

  emit(type, data) {
    for (const fn of this.listeners[type] || []) {
      try {
        fn(data);
      } catch (e) {
        // a listener's error is its own
      }
    }
  }

  save() {
    const st = storage();
    if (st && this.s) st.setItem(this.storeKey, JSON.stringify({ ...this.s, handled: [...this.handled].slice(-50) }));
  }

  restore() {
    const st = storage();
    const raw = st && st.getItem(this.storeKey);
    if (!raw) return null;
    try {
      return JSON.parse(raw);
    } catch (e) {
      return null;
    }
  }

  async post(path, body, token) {
    const headers = { 'content-type': 'application/json' };
    if (token) headers.authorization = 'Bearer ' + token;
    const res = await fetch(this.endpoint + path, { method: 'POST', headers, body: JSON.stringify(body) });
    let json = null;
    try {
      json = await res.json();
    } catch (e) {
      json = { success: false, error: 'not JSON', data: { code: 'BAD_RESPONSE' } };
    }
    return { status: res.status, json };
  }

  adopt(data) {
    const previous = this.s || {};
    this.s = {
      sessionId: data.sessionId,
      token: data.sessionToken,
      expiresAt: data.sessionTokenExpiresAt,
      streamToken: data.streamToken,
      sseUrl: data.sseUrl,
      epoch: data.epoch,
      seq: previous.sessionId === data.sessionId ? previous.seq || 0 : 0,
      activeRunId: previous.sessionId === data.sessionId ? previous.activeRunId : undefined,
      beacon: data.analytics,
      pendingStep: previous.sessionId === data.sessionId ? previous.pendingStep : undefined,
      pendingReview: previous.sessionId === data.sessionId ? previous.pendingReview : undefined,
      agents: previous.sessionId === data.sessionId ? previous.agents : undefined,
    };
    this.config = data.siteConfig || {};
    this.policy = data.policy || {};
    // The site's page configuration: no scrolling while acting when it says so (the
    // default on new installs), and how long to wait for the page to settle after a step.
    const pageConfig = this.config.pageConfig || {};
    agentApi.setAutoScroll(pageConfig.disableAutoScroll === false);
    this.settleMs = Math.min(Math.max(Number(pageConfig.adaptiveSettleMaxWaitMs) || 400, 100), 5000);
    this.save();
    // Refreshed a minute before it expires, so a visitor who stays never meets the expiry.
    clearTimeout(this.refreshTimer);
    const lead = Math.max(5000, (data.sessionTokenExpiresAt || 0) - Date.now() - 60000);
    this.refreshTimer = setTimeout(() => this.refresh().catch(() => {}), lead);
  }

  async refresh() {
    const r = await this.post('/v2/runtime/session/open', { sessionToken: this.s.token, sessionId: this.s.sessionId });
    if (r.status === 200) {
      this.adopt(r.json.data);
      this.restartStream();
    }
    return r;
  }

  // Opens the session: a refresh of the stored one when it still works, else a bootstrap
  // with the public key (a new session).
  async open() {
    const stored = this.restore();
    if (stored && stored.token) {
      this.s = stored;
      (stored.handled || []).forEach((id) => this.handled.add(id));
      const r = await this.post('/v2/runtime/session/open', { sessionToken: stored.token, sessionId: stored.sessionId });
      if (r.status === 200) {
        this.adopt(r.json.data);
        this.emit('session', { refreshed: true, sessionId: this.s.sessionId });
        return this.s;
      }
    }
    const r = await this.post('/v2/runtime/session/open', {
      siteId: this.siteId,
      url: location.href,
      publicKey: this.siteKey,
      ...(Object.keys(this.visitor).length ? { visitor: this.visitor } : {}),
    });
    if (r.status !== 200) throw new Error((r.json && r.json.error) || 'the session did not open');
    this.s = null;
    this.handled.clear();
    this.adopt(r.json.data);
    this.emit('session', { refreshed: false, sessionId: this.s.sessionId });
    return this.s;
  }

  // Calls a runtime route with the session token: an expired token is refreshed once,
  // transparently (a failed refresh bootstraps a new session).
  async call(path, body) {
    let r = await this.post(path, { sessionId: this.s.sessionId, ...body }, this.s.token);
    if (r.status === 401 && r.json && r.json.data && r.json.data.code === 'SESSION_TOKEN_EXPIRED') {
      // Expired: the spec's next action is a bootstrap with the public key.
      const stored = storage();
      if (stored) stored.removeItem(this.storeKey);
      await this.open();
      this.emit('refresh', { sessionId: this.s.sessionId });
      this.restartStream();
      r = await this.post(path, { sessionId: this.s.sessionId, ...body }, this.s.token);
    }
    return r;
  }

  async sync() {
    const r = await this.call('/v2/runtime/state', { seqAfter: this.s.seq || 0 });
    if (r.status === 200) this.apply(r.json.data);
    return r;
  }

  // A command under strict mode: the epoch and seq we know; a stale conflict syncs and
  // is retried once with the same clientEventId. A command that is not accepted has no
  // local fallback.
  async command(body) {
    const clientEventId = randomId('ce_');
    const send = () =>
      this.call('/v2/runtime/command', {
        ...body,
        clientEventId,
        expectedEpoch: this.s.epoch,
        expectedSeq: this.s.seq || 0,
      });
    let r = await send();
    const code = r.json && r.json.data && r.json.data.code;
    if (r.status === 409 && (code === 'stale_seq' || code === 'stale_epoch')) {
      const d = r.json.data;
      if (typeof d.currentEpoch === 'number') this.s.epoch = d.currentEpoch;
      if (typeof d.currentSeq === 'number') this.s.seq = Math.max(this.s.seq || 0, d.currentSeq);
      await this.sync();
      this.emit('retry', { code, clientEventId });
      r = await send();
    }
    if (r.status === 200) {
      // What the command changed arrives as events: read them (never skip past them).
      await this.sync().catch(() => {});
    }
    return r;
  }

  apply(projection) {
    if (!projection || projection.sessionId !== this.s.sessionId) return;
    this.s.epoch = projection.epoch;
    this.s.activeRunId = projection.activeRunId;
    this.s.runStatus = projection.runStatus;
    for (const e of projection.events || []) {
      if (e.seq <= (this.s.seq || 0)) continue;
      this.s.seq = e.seq;
      this.emit('event', e);
      if (e.type === 'run.message') this.emit('message', e.data || {});
      if (e.type === 'run.transition') this.emit('run', e.data || {});
      if (e.type === 'run.step') this.emit('step', e.data || {});
      if (e.type === 'page.request') this.perform(e.data || {});
      if (e.type === 'a2w.review') this.review(e.data);
    }
    if (typeof projection.seq === 'number') this.s.seq = Math.max(this.s.seq || 0, projection.seq);
    this.save();
  }

  startStream() {
    if (typeof EventSource === 'undefined') return this.startPolling();
    const url = this.endpoint + '/v2/runtime/stream?streamTicket=' + encodeURIComponent(this.s.streamToken) +
      '&seqAfter=' + (this.s.seq || 0);
    const source = new EventSource(url);
    this.source = source;
    let failures = 0;
    source.addEventListener('projection', (ev) => {
      failures = 0;
      this.apply(JSON.parse(ev.data));
    });
    source.addEventListener('ready', () => this.emit('ready', { sessionId: this.s.sessionId }));
    source.onerror = () => {
      if (++failures >= 3) {
        source.close();
        this.source = null;
        this.startPolling();
      }
    };
  }

  restartStream() {
    if (this.source) {
      this.source.close();
      this.source = null;
      this.startStream();
    }
  }

  startPolling() {
    if (this.polling) return;
    this.polling = setInterval(() => this.sync().catch(() => {}), 1000);
  }

  // --- steps on this page ------------------------------------------------------------

  // Delivers a step's answer. The run waits for it, so what may pass is tried again (the
  // network, a busy server, a stale seq twice in a row); a refusal that says the step is
  // gone (stale_run) ends it. The step stays stored as pending until then: a page load
  // in between answers it from the next document.
  async answer(step, result, reason) {
    this.handled.add(step.stepId);
    this.save();
    const body = { type: 'RUN_CONTROL', action: 'continue', runId: step.runId, stepId: step.stepId,
      result, reason: reason || 'loop_continue' };
    let r = null;
    for (let attempt = 0; attempt < 6; attempt++) {
      if (attempt) await new Promise((done) => setTimeout(done, 250 * attempt));
      try {
        r = await this.command(body);
      } catch (e) {
        r = null;
        continue;
      }
      if (!transient(r)) break;
    }
    if (this.s.pendingStep && this.s.pendingStep.stepId === step.stepId) this.s.pendingStep = undefined;
    this.save();
    return r;
  }

  parse(value) {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value);
    } catch (e) {
      return value;
    }
  }

  async perform(step) {
    if (!step.stepId || this.handled.has(step.stepId) || step.runId !== this.s.activeRunId) return;
    this.handled.add(step.stepId);
    this.emit('pageStep', step);
    try {
      if (step.op === 'call') {
        const fn = agentApi[step.function];
        if (typeof fn !== 'function') return this.answer(step, { ok: false, error: 'no page function ' + step.function });
        return this.answer(step, { ok: true, value: this.parse(fn(step.argument)), url: location.href });
      }
      if (step.op === 'snapshot') {
        return this.answer(step, { ok: true, data: this.parse(agentApi.snapshot(step.options || {})), url: location.href });
      }
      if (step.op === 'wait') {
        const until = Date.now() + (step.timeoutMs || 10000);
        while (Date.now() < until) {
          const seen = agentApi.probe(step.condition || {});
          if (seen === 'invalid-selector') return this.answer(step, { ok: false, error: 'not a valid CSS selector' });
          if (seen) return this.answer(step, { ok: true });
          await new Promise((r) => setTimeout(r, 100));
        }
        return this.answer(step, { ok: false, error: 'waited in vain' });
      }
      if (step.op === 'act') {
        // The action may take this document away: the next page answers for it.
        this.s.pendingStep = { stepId: step.stepId, runId: step.runId, op: 'act' };
        this.save();
        const answer = this.parse(agentApi.act(step.action || {}));
        await new Promise((r) => setTimeout(r, this.settleMs || 400));
        if (this.leaving) return;
        return this.answer(step, { ok: true, answer, navigated: false, url: location.href });
      }
      if (step.op === 'navigate') {
        // Navigation goes through the tab preflight first.
        const r = await this.command({ type: 'TAB_EVENT', targetUrl: step.url, currentUrl: location.href,
          runId: step.runId, logicalTabId: 'main' });
        const d = (r.json && r.json.data) || {};
        if (r.status !== 200 || d.decision !== 'allow_same_tab') {
          return this.answer(step, { ok: false, code: 'BLOCKED',
            error: d.notice || d.decisionReason || (r.json && r.json.error) || 'not allowed' });
        }
        this.s.pendingStep = { stepId: step.stepId, runId: step.runId, op: 'navigate' };
        this.save();
        location.assign(step.url);
        return undefined;
      }
      return this.answer(step, { ok: false, error: 'unknown step ' + step.op });
    } catch (e) {
      return this.answer(step, { ok: false, error: String((e && e.message) || e) });
    }
  }

  // After a page load: the step the last document started (a click that navigated, a
  // navigation) is answered from here, carrying the run across the load.
  async resumePending() {
    const p = this.s.pendingStep;
    if (!p) return;
    const result = p.op === 'act'
      ? { ok: true, answer: { ok: true }, navigated: true, navigationOk: true, url: location.href }
      : { ok: true, url: location.href };
    await this.answer(p, result, 'same_tab_navigation_handoff');
  }

  // An A2W run handed to this browser: its `open` link lands here with the receipt in
  // the fragment (which never reaches the site's server). Nothing runs before the
  // visitor accepts: the claim is first answered with the offer (A2W_CONSENT_REQUIRED),
  // which the visitor sees; only their acceptance claims the run (the server refuses a
  // claim without the offer's consentToken). Declining ends the agent's run.
  async claimFromLink() {
    const match = /(?:^#|&)pilothouse-a2w=([^&]+)/.exec(location.hash);
    if (!match) return null;
    const receipt = decodeURIComponent(match[1]);
    history.replaceState(null, '', location.pathname + location.search);
    const ask = (extra) => this.command({ type: 'RUN_INPUT', a2wReceipt: receipt, requestedMode: 'planner', ...extra });
    const first = await ask({});
    const d = (first.json && first.json.data) || {};
    if (d.code !== 'A2W_CONSENT_REQUIRED' || !d.offer) {
      this.emit('claim', { ok: false, data: d });
      return first;
    }
    const offer = d.offer;
    this.emit('consent', offer);
    const accepted = await askConsent(offer);
    // A run the visitor has going is replaced only because they accepted an offer that said so.
    const r = await ask({ a2wConsent: accepted ? 'accept' : 'decline', a2wConsentToken: offer.consentToken,
      forceNewRun: accepted && !!offer.activeRun });
    if (accepted && r.status === 200) {
      this.s.agents = { ...(this.s.agents || {}), [offer.a2wRunId]: (offer.agent || {}).name || '' };
      this.save();
    }
    this.emit('claim', { ok: accepted && r.status === 200, declined: !accepted, data: r.json && r.json.data });
    return r;
  }

  // A claimed run finished: the visitor sees its result and decides whether the agent
  // gets it. Kept across page loads until they decide (undecided, it is never sent).
  async review(data) {
    if (!data || !data.runId || this.reviewing === data.runId) return;
    this.reviewing = data.runId;
    this.s.pendingReview = data;
    this.save();
    const share = await askShare(data, (this.s.agents || {})[data.a2wRunId]);
    const r = await this.command({ type: 'RUN_CONTROL', action: share ? 'share_result' : 'withhold_result',
      runId: data.runId });
    this.s.pendingReview = undefined;
    this.reviewing = undefined;
    this.save();
    this.emit('review', { shared: share, ok: r.status === 200, data: r.json && r.json.data });
  }

  // --- the public calls ------------------------------------------------------------

  async send(text) {
    const awaiting = this.s.runStatus === 'awaiting_user' && this.s.activeRunId;
    const r = await this.command({ type: 'RUN_INPUT', message: text, continueRun: !!awaiting,
      forceNewRun: !awaiting, requestedMode: 'auto' });
    if (r.status !== 200) throw new Error((r.json && r.json.error) || 'the message was not accepted');
    return r.json.data;
  }

  track(kind, name, extra) {
    const b = this.s && this.s.beacon;
    if (!b || !name) return false;
    const q = new URLSearchParams({ sid: b.sid, exp: String(b.exp), sig: b.sig, kind, name: String(name),
      page: location.href });
    for (const [k, v] of Object.entries(extra || {})) {
      if (v !== undefined && v !== null) q.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
    const url = this.endpoint + '/v2/runtime/collect?' + q.toString();
    if (navigator.sendBeacon && navigator.sendBeacon(url)) return true;
    fetch(url, { method: 'POST', keepalive: true }).catch(() => {});
    return true;
  }
}

let runtime = null;
let chat = null;
let ready = null;

async function init(options = {}) {
  if (ready) return ready;
  const script = currentScript || {};
  const data = script.dataset || {};
  const opts = {
    siteKey: options.siteKey || data.siteKey,
    siteId: options.siteId || data.siteId,
    endpoint: options.endpoint || data.endpoint || (script.src ? new URL(script.src).origin : location.origin),
    context: options.context,
    contextToken: options.contextToken || data.contextToken,
  };
  if (!opts.siteKey || !opts.siteId) throw new Error('Pilothouse.init needs siteKey and siteId');
  runtime = new Runtime(opts);
  window.addEventListener('pagehide', () => {
    runtime.leaving = true;
  });
  ready = (async () => {
    // A busy server or a dropped connection does not leave the page without its session.
    for (let attempt = 1; ; attempt++) {
      try {
        await runtime.open();
        break;
      } catch (e) {
        if (attempt >= 3) throw e;
        await new Promise((done) => setTimeout(done, 500 * attempt));
      }
    }
    await runtime.sync().catch(() => {});
    runtime.startStream();
    if (options.chat !== false && data.chat !== 'off') {
      chat = createChat(runtime, runtime.config || {}, { send: (t) => api.send(t) });
    }
    await runtime.resumePending();
    if (runtime.s.pendingReview) runtime.review(runtime.s.pendingReview);
    await runtime.claimFromLink();
    return api;
  })();
  return ready;
}

const api = {
  version: VERSION,
  init,
  open() {
    if (chat) chat.open();
  },
  async send(text) {
    await ready;
    return runtime.send(String(text));
  },
  trackGoal(name, value) {
    return runtime ? runtime.track('goal', name, { value }) : false;
  },
  trackEvent(name, properties) {
    return runtime ? runtime.track('event', name, { props: properties }) : false;
  },
  trackConversion(name, value, currency) {
    return runtime ? runtime.track('conversion', name, { value, currency }) : false;
  },
  on(type, fn) {
    if (runtime) runtime.on(type, fn);
  },
  // For tests and debugging: the session as the SDK knows it (no tokens).
  state() {
    if (!runtime || !runtime.s) return null;
    const { sessionId, epoch, seq, activeRunId, runStatus } = runtime.s;
    return { sessionId, epoch, seq, activeRunId, runStatus };
  },
};

window.Pilothouse = api;
if (currentScript && currentScript.dataset && currentScript.dataset.siteKey) {
  init().catch((e) => console.warn('Pilothouse:', e.message));
}
