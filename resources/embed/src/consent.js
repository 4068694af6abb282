// The visitor's consent, in their own page: before an AI agent's run (an A2W browser run
// opened from its link) acts in the visitor's session, and before what it found goes back
// to that agent. A modal dialog in a shadow root, built with DOM calls only (text is set
// with textContent: the agent's name and task are the agent's words, never markup) and
// styled with a constructed stylesheet, so a strict CSP allows it. "Decline" / "Don't
// share" has the focus; Escape declines. docs/embed.md, docs/security.md.

const CSS = `
:host { all: initial; }
.backdrop { position: fixed; inset: 0; z-index: 2147483600; background: rgba(0,0,0,.45); display: flex;
  align-items: center; justify-content: center; font: 14px/1.45 system-ui, sans-serif; }
.dialog { background: #fff; color: #1b1b1b; border-radius: 12px; box-shadow: 0 8px 30px rgba(0,0,0,.35);
  width: min(460px, calc(100vw - 32px)); max-height: calc(100vh - 48px); display: flex; flex-direction: column; }
h2 { margin: 0; padding: 14px 18px 6px; font-size: 17px; }
.body { padding: 4px 18px; overflow-y: auto; }
dl { margin: 8px 0; display: grid; grid-template-columns: max-content 1fr; gap: 4px 10px; }
dt { font-weight: 600; color: #444; }
dd { margin: 0; word-break: break-word; }
.task, .result { white-space: pre-wrap; word-break: break-word; background: #f4f4f4; border-radius: 6px;
  padding: 8px 10px; max-height: 180px; overflow-y: auto; margin: 6px 0; }
.warn { background: #fff4e5; border-left: 4px solid #e08a00; padding: 6px 10px; margin: 8px 0; }
.note { color: #555; font-size: 13px; }
.actions { display: flex; justify-content: flex-end; gap: 8px; padding: 12px 18px; border-top: 1px solid #e5e5e5; }
button { border-radius: 6px; padding: 8px 14px; font: inherit; cursor: pointer; border: 1px solid #888; background: #fff; color: #1b1b1b; }
button.primary { background: #1f5fbf; border-color: #1f5fbf; color: #fff; }
button:focus-visible { outline: 3px solid #ffbf47; outline-offset: 2px; }
`;

function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

const TRUST = {
  verified: 'verified (its signature was checked)',
  identified: 'not verified (it only names itself)',
  anonymous: 'anonymous (not verified)',
};

// One dialog at a time; resolves with the button chosen (true: the primary action).
function dialog(kind, title, build, primaryLabel, declineLabel) {
  return new Promise((resolve) => {
    const host = el('div', { 'data-pilothouse': kind });
    const root = host.attachShadow({ mode: 'open' });
    try {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      root.adoptedStyleSheets = [sheet];
    } catch (e) {
      root.appendChild(el('style', {}, CSS));
    }
    const backdrop = el('div', { class: 'backdrop' });
    const box = el('div', { class: 'dialog', role: 'alertdialog', 'aria-modal': 'true', 'aria-labelledby': 'ph-title' });
    const body = el('div', { class: 'body' });
    box.append(el('h2', { id: 'ph-title' }, title), body);
    build(body);
    const actions = el('div', { class: 'actions' });
    const no = el('button', { type: 'button', 'data-action': 'decline' }, declineLabel);
    const yes = el('button', { type: 'button', class: 'primary', 'data-action': 'accept' }, primaryLabel);
    actions.append(no, yes);
    box.appendChild(actions);
    backdrop.appendChild(box);
    root.appendChild(backdrop);
    const done = (value) => {
      host.remove();
      resolve(value);
    };
    no.addEventListener('click', () => done(false));
    yes.addEventListener('click', () => done(true));
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') done(false);
    });
    (document.body || document.documentElement).appendChild(host);
    no.focus();
  });
}

function field(dl, name, value) {
  dl.append(el('dt', {}, name), el('dd', {}, value));
}

// The offer (RUN_INPUT's A2W_CONSENT_REQUIRED answer): which agent asks, for what, on
// which site, and the visitor's own run it would replace.
export function askConsent(offer) {
  const agent = offer.agent || {};
  const site = offer.site || {};
  const name = agent.name ? '“' + agent.name + '”' : 'An unnamed agent';
  return dialog('consent', 'An AI agent asks to act in your session', (body) => {
    body.appendChild(el('p', {}, name + ' wants to do this task on this page, signed in as you:'));
    body.appendChild(el('div', { class: 'task', 'data-field': 'task' }, offer.task || ''));
    const dl = el('dl');
    field(dl, 'Agent', agent.name || '(no name given)');
    field(dl, 'Trust', (TRUST[agent.trust] || agent.trust || 'unknown') +
      (agent.signatureAgent ? ' · ' + agent.signatureAgent : ''));
    field(dl, 'Site', (site.name ? site.name + ' · ' : '') + (site.host || location.host));
    body.appendChild(dl);
    if (offer.activeRun) {
      body.appendChild(el('p', { class: 'warn', 'data-field': 'active-run' },
        'Allowing it stops the task you have going: “' + (offer.activeRun.message || '') + '”.'));
    }
    body.appendChild(el('p', { class: 'note' }, 'Nothing runs unless you allow it. Forms it would send ask you ' +
      'first, and what it finds is sent to the agent only if you choose to share it.'));
  }, 'Allow', 'Decline');
}

// A claimed run's result, before anything goes back to the agent: exactly what would be sent.
export function askShare(review, agentName) {
  const name = agentName ? '“' + agentName + '”' : 'the agent';
  return dialog('share', 'Share the result with ' + name + '?', (body) => {
    body.appendChild(el('p', {}, 'The task is done. This is what would be sent to ' + name + ':'));
    const shown = review.json !== undefined
      ? (review.text || '') + '\n' + JSON.stringify(review.json, null, 2)
      : review.text || '';
    body.appendChild(el('div', { class: 'result', 'data-field': 'result' }, shown));
    body.appendChild(el('p', { class: 'note' }, 'If you do not share it, the agent only learns that the task ' +
      'ran and that you kept the result.'));
  }, 'Share', 'Don’t share');
}
