// A raw DevTools client with a token that is not a session's (tests/tst_sessions.cpp):
// prints how the connection ended, {opened, code} (1008: refused, with no reason given).
// argv[2]: {url}
import WebSocket from 'ws';

const cfg = JSON.parse(process.argv[2]);
const out = { opened: false, code: 0, reason: '', answered: false };
await new Promise((resolve) => {
  const ws = new WebSocket(cfg.url);
  ws.on('open', () => {
    out.opened = true;
    ws.send(JSON.stringify({ id: 1, method: 'Target.getTargets' }));
  });
  ws.on('message', () => { out.answered = true; });
  ws.on('close', (code, reason) => {
    out.code = code;
    out.reason = reason.toString();
    resolve();
  });
  ws.on('error', (e) => { out.error = String(e.message); });
  setTimeout(() => { out.timedOut = true; ws.terminate(); resolve(); }, 15000);
});
console.log(JSON.stringify(out));
