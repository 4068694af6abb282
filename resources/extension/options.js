'use strict';

const $ = (id) => document.getElementById(id);

async function showStatus() {
  const { server, deviceId } = await chrome.storage.local.get(['server', 'deviceId']);
  if (server) $('server').value = server;
  let connected = false;
  try { connected = (await chrome.runtime.sendMessage({ type: 'status' })).connected; } catch (e) {}
  $('status').textContent = deviceId
    ? `Paired as ${deviceId} with ${server}: ${connected ? 'connected' : 'not connected'}`
    : 'Not paired.';
  $('status').dataset.state = deviceId ? (connected ? 'connected' : 'paired') : 'unpaired';
}

$('pair').addEventListener('submit', async (event) => {
  event.preventDefault();
  const server = $('server').value.trim().replace(/\/+$/, '');
  const body = { code: $('code').value.trim(), name: $('name').value.trim() || 'Chromium',
                 version: chrome.runtime.getManifest().version };
  $('status').textContent = 'Pairing…';
  try {
    const r = await fetch(server + '/devices/claim', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const answer = await r.json();
    if (!r.ok) throw new Error(answer.error || answer.message || 'HTTP ' + r.status);
    await chrome.storage.local.set({ server, token: answer.token, deviceId: answer.deviceId, name: body.name });
    $('code').value = '';
    await chrome.runtime.sendMessage({ type: 'paired' });
  } catch (e) {
    $('status').textContent = 'Pairing failed: ' + e.message;
    $('status').dataset.state = 'failed';
    return;
  }
  setTimeout(showStatus, 500);
});

$('unpair').addEventListener('click', async () => {
  await chrome.storage.local.remove(['token', 'deviceId']);
  await chrome.runtime.sendMessage({ type: 'paired' });
  showStatus();
});

showStatus();
setInterval(showStatus, 2000);
