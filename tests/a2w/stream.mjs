// Follows an A2W run's stream with a real SSE client (the eventsource package):
//   node stream.mjs RUN_URL_WITH_ACCESS [TIMEOUT_MS]
// Prints {events: [{id, type, data}], closedAfterDone} when the server ends the stream
// after the `done` event.
import { EventSource } from "eventsource";

const [url, timeoutArg] = process.argv.slice(2);
const events = [];
const types = ["status", "step", "message", "input", "result", "done"];
const es = new EventSource(url);
let done = false;

const finish = (ok, why) => {
  es.close();
  console.log(JSON.stringify({ ok, why, events, closedAfterDone: done }));
  process.exit(ok ? 0 : 1);
};

for (const type of types)
  es.addEventListener(type, (e) => {
    events.push({ id: e.lastEventId, type: e.type, data: JSON.parse(e.data) });
    if (type === "done") done = true;
  });
// The server closes the stream after `done`; the client then sees an error (and would
// reconnect): that is the end.
es.onerror = () => finish(done, done ? "closed after done" : "error before done");
setTimeout(() => finish(false, "timeout"), Number(timeoutArg || 60000));
