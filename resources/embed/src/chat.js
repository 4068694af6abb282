// The chat surface: a launcher button and a panel in a shadow root, following the site's
// configuration (greeting, shortcuts, mascot, experience, voice, page config). Built with
// DOM calls only and styled with a constructed stylesheet: nothing a strict CSP refuses.
// Keyboard: the launcher and every control are buttons or inputs; Escape closes the
// panel and gives focus back to the launcher.

const CSS = `
:host { all: initial; }
.launcher { position: fixed; bottom: 20px; right: 20px; z-index: 2147483000; border: 0; border-radius: 24px;
  padding: 12px 18px; font: 600 15px system-ui, sans-serif; color: #fff; background: var(--ph-accent, #1f5fbf);
  cursor: pointer; box-shadow: 0 4px 14px rgba(0,0,0,.25); }
.launcher:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid #ffbf47; outline-offset: 2px; }
.panel { position: fixed; bottom: 80px; right: 20px; z-index: 2147483000; width: min(360px, calc(100vw - 40px));
  max-height: min(520px, calc(100vh - 120px)); display: flex; flex-direction: column; background: #fff; color: #1b1b1b;
  border-radius: 12px; box-shadow: 0 8px 30px rgba(0,0,0,.3); font: 14px/1.4 system-ui, sans-serif; overflow: hidden; }
.panel[hidden] { display: none; }
header { display: flex; align-items: center; justify-content: space-between; padding: 10px 14px;
  background: var(--ph-accent, #1f5fbf); color: #fff; font-weight: 600; }
header button { background: transparent; color: #fff; border: 0; font-size: 18px; cursor: pointer; }
.log { flex: 1; overflow-y: auto; padding: 10px 14px; display: flex; flex-direction: column; gap: 8px; }
.msg { padding: 8px 10px; border-radius: 10px; max-width: 85%; white-space: pre-wrap; word-break: break-word; }
.msg.user { align-self: flex-end; background: #e6effb; }
.msg.assistant { align-self: flex-start; background: #f1f1f1; }
.msg.step { align-self: flex-start; color: #555; font-size: 12px; background: transparent; padding: 0; }
.shortcuts { display: flex; flex-wrap: wrap; gap: 6px; padding: 0 14px 8px; }
.shortcuts button { border: 1px solid #c5d3ea; background: #fff; border-radius: 14px; padding: 4px 10px; cursor: pointer; }
form { display: flex; gap: 6px; padding: 10px 14px; border-top: 1px solid #e5e5e5; }
input { flex: 1; padding: 8px; border: 1px solid #bbb; border-radius: 6px; font: inherit; }
form button { border: 0; border-radius: 6px; padding: 8px 12px; background: var(--ph-accent, #1f5fbf); color: #fff; cursor: pointer; }
`;

function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function style(root) {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [sheet];
  } catch (e) {
    root.appendChild(el('style', {}, CSS)); // older engines; a strict CSP needs the above
  }
}

export function createChat(runtime, config, actions) {
  const host = el('div', { 'data-pilothouse': 'chat' });
  const root = host.attachShadow({ mode: 'open' });
  style(root);
  const experience = config.experience || {};
  const mascot = (runtime.policy && runtime.policy.mascot) || {};
  const title = experience.title || (mascot.enabled && mascot.name) || 'Assistant';
  const launcher = el('button', { class: 'launcher', type: 'button', 'aria-haspopup': 'dialog',
    'aria-expanded': 'false', 'aria-label': 'Open the ' + title + ' chat' }, experience.launcherLabel || 'Ask ' + title);
  const panel = el('div', { class: 'panel', role: 'dialog', 'aria-label': title + ' chat', hidden: '' });
  const header = el('header');
  header.appendChild(el('span', {}, title));
  const close = el('button', { type: 'button', 'aria-label': 'Close the chat' }, '×');
  header.appendChild(close);
  const log = el('div', { class: 'log', role: 'log', 'aria-live': 'polite' });
  const shortcuts = el('div', { class: 'shortcuts', role: 'group', 'aria-label': 'Suggestions' });
  const form = el('form');
  const input = el('input', { type: 'text', 'aria-label': 'Message', placeholder: experience.placeholder || 'Type a message…',
    autocomplete: 'off', maxlength: '2000' });
  const send = el('button', { type: 'submit' }, 'Send');
  form.append(input, send);
  const voice = config.voice || {};
  const Recognition = window.SpeechRecognition || window.webkitSpeechRecognition;
  if (voice.enabled && Recognition) {
    const mic = el('button', { type: 'button', 'aria-label': 'Speak a message' }, '🎤');
    mic.addEventListener('click', () => {
      const rec = new Recognition();
      rec.lang = voice.language || document.documentElement.lang || 'en';
      rec.onresult = (e) => {
        input.value = e.results[0][0].transcript;
      };
      rec.start();
    });
    form.insertBefore(mic, send);
  }
  panel.append(header, log, shortcuts, form);
  root.append(launcher, panel);
  if (experience.accentColor) host.style.setProperty('--ph-accent', experience.accentColor);

  function add(kind, text) {
    if (!text) return;
    const m = el('div', { class: 'msg ' + kind }, text);
    log.appendChild(m);
    log.scrollTop = log.scrollHeight;
  }
  function open() {
    panel.hidden = false;
    launcher.setAttribute('aria-expanded', 'true');
    input.focus();
  }
  function hide() {
    panel.hidden = true;
    launcher.setAttribute('aria-expanded', 'false');
    launcher.focus();
  }
  launcher.addEventListener('click', () => (panel.hidden ? open() : hide()));
  close.addEventListener('click', hide);
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') hide();
  });
  async function submit(text) {
    text = text.trim();
    if (!text) return;
    add('user', text);
    input.value = '';
    try {
      await actions.send(text);
    } catch (e) {
      add('assistant', e.message);
    }
  }
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submit(input.value);
  });

  const greeting = config.greeting || {};
  if (greeting.text && !greeting.disabled) add('assistant', greeting.text);
  for (const s of (config.shortcuts || []).slice(0, 4)) {
    const label = s.label || s.title || s.name;
    const prompt = s.prompt || s.goal || label;
    if (!label) continue;
    const b = el('button', { type: 'button' }, label);
    b.addEventListener('click', () => {
      open();
      submit(prompt);
    });
    shortcuts.appendChild(b);
  }
  runtime.on('message', (m) => add(m.role === 'user' ? 'user' : 'assistant', m.text));
  runtime.on('step', (s) => add('step', s.summary));

  (document.body || document.documentElement).appendChild(host);
  return { open, close: hide, host };
}
