// Follows an A2W run's, a workflow's or a v1 task's stream with a real SSE client (the
// eventsource package):
//   node stream.mjs URL_WITH_ACCESS [TIMEOUT_MS] [run|workflow|v1]
// Prints {events: [{id, type, data}], closedAfterDone} when the server ends the stream
// after its last event (`done`; `workflow` for a workflow).
import { EventSource } from "eventsource";

const [url, timeoutArg, kind = "run"] = process.argv.slice(2);
const events = [];
const runTypes = ["status", "step", "tool", "message", "observation", "input", "result", "error",
  "done"];
const types = {
  run: runTypes,
  workflow: [...runTypes, "workflow"],
  v1: ["ready", "status", "step", "tool", "message", "observation", "input", "done", "error"],
}[kind];
const last = kind === "workflow" ? "workflow" : "done";
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
    if (type === last) done = true;
  });
// The server closes the stream after the last event; the client then sees an error (and
// would reconnect): that is the end.
es.onerror = () => finish(done, done ? "closed after the last event" : "error before the end");
setTimeout(() => finish(false, "timeout"), Number(timeoutArg || 60000));
