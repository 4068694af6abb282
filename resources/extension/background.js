// Pilothouse device: keeps one WebSocket to the paired Pilothouse service and answers
// its calls (docs/api/devices.md). Holds only the device token, never an API key.
'use strict';

const VERSION = chrome.runtime.getManifest().version;
let socket = null;
let backoffMs = 1000;
let heartbeat = null;
let reconnectTimer = null;

function socketUrl(server) {
  const u = new URL('/devices/socket', server);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  return u.toString();
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

async function tabsNow() {
  const tabs = await chrome.tabs.query({});
  return tabs.map((t) => ({ id: t.id, url: t.url || '', title: t.title || '', active: !!t.active,
                            windowId: t.windowId }));
}

async function reportTabs() {
  if (socket && socket.readyState === WebSocket.OPEN) send({ type: 'tabs', tabs: await tabsNow() });
}

async function activeTabId() {
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (tab) return tab.id;
  const [any] = await chrome.tabs.query({ active: true });
  if (!any) throw new Error('no open tab');
  return any.id;
}

async function executeJavascript(params) {
  const tabId = Number.isInteger(params.tabId) ? params.tabId : await activeTabId();
  const [frame] = await chrome.scripting.executeScript({
    target: { tabId },
    world: 'MAIN',
    args: [String(params.code || '')],
    func: async (code) => {
      try {
        // The code is an expression or a function body; its value is the result.
        let value;
        try {
          value = await (0, eval)(code);
        } catch (e) {
          if (!(e instanceof SyntaxError)) throw e;
          value = await new Function(code)();
        }
        return { ok: true, value: value === undefined ? null : JSON.parse(JSON.stringify(value)) };
      } catch (e) {
        return { ok: false, error: String(e && e.message ? e.message : e) };
      }
    },
  });
  const out = frame && frame.result;
  if (!out) throw new Error('the script returned nothing');
  if (!out.ok) throw new Error(out.error);
  return { tabId, result: out.value };
}

async function answer(call) {
  try {
    let result;
    if (call.method === 'tabs') result = { tabs: await tabsNow() };
    else if (call.method === 'executeJavascript') result = await executeJavascript(call.params || {});
    else throw new Error('unknown method ' + call.method);
    send({ type: 'result', id: call.id, result });
  } catch (e) {
    send({ type: 'result', id: call.id, error: String(e && e.message ? e.message : e) });
  }
}

function scheduleReconnect() {
  if (reconnectTimer) return;
  reconnectTimer = setTimeout(() => { reconnectTimer = null; connect(); }, backoffMs);
  backoffMs = Math.min(backoffMs * 2, 60000);
}

async function connect() {
  const { server, token, name } = await chrome.storage.local.get(['server', 'token', 'name']);
  if (!server || !token) return;
  if (socket && (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)) return;
  let ws;
  try {
    ws = new WebSocket(socketUrl(server));
  } catch (e) {
    scheduleReconnect();
    return;
  }
  socket = ws;
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: 'hello', token, name: name || 'Chromium', version: VERSION }));
  };
  ws.onmessage = (event) => {
    let m;
    try { m = JSON.parse(event.data); } catch (e) { return; }
    if (m.type === 'welcome') {
      backoffMs = 1000;
      chrome.storage.local.set({ deviceId: m.deviceId, connectedAt: Date.now() });
      reportTabs();
    } else if (m.type === 'call') {
      answer(m);
    }
  };
  ws.onclose = () => {
    if (socket === ws) socket = null;
    scheduleReconnect();
  };
  ws.onerror = () => {};
}

// A message every 20 s keeps the service worker (and the connection) alive.
if (!heartbeat) {
  heartbeat = setInterval(() => {
    if (socket && socket.readyState === WebSocket.OPEN) send({ type: 'heartbeat' });
    else connect();
  }, 20000);
}
chrome.alarms.create('pilothouse-keepalive', { periodInMinutes: 0.5 });
chrome.alarms.onAlarm.addListener(() => connect());

for (const ev of [chrome.tabs.onCreated, chrome.tabs.onRemoved, chrome.tabs.onActivated])
  ev.addListener(() => reportTabs());
chrome.tabs.onUpdated.addListener((id, change) => {
  if (change.status === 'complete' || change.title || change.url) reportTabs();
});

chrome.runtime.onMessage.addListener((message, sender, reply) => {
  if (message && message.type === 'paired') {
    if (socket) socket.close();
    socket = null;
    backoffMs = 1000;
    connect().then(() => reply({ ok: true }));
    return true;
  }
  if (message && message.type === 'status') {
    reply({ connected: !!(socket && socket.readyState === WebSocket.OPEN) });
    return false;
  }
  return false;
});

chrome.runtime.onStartup.addListener(() => connect());
chrome.runtime.onInstalled.addListener(() => connect());
connect();
