"""A visiting agent in 30 lines of standard-library Python (docs/api/a2w.md).
Usage: a2w_agent.py PILOTHOUSE_URL PAGE_URL PROMPT [key=answer ...] -> saves the first artifact."""
import json, sys, urllib.request as rq

base, page, prompt, answers = sys.argv[1], sys.argv[2], sys.argv[3], dict(a.split("=", 1) for a in sys.argv[4:])

def call(method, url, body=None, headers={}):
    data = None if body is None else json.dumps(body).encode()
    req = rq.Request(url, data, {"Content-Type": "application/json", **headers}, method=method)
    return rq.urlopen(req, timeout=120)

run = json.load(call("POST", base + "/v2/a2w/runs", {"url": page, "prompt": prompt,
                     "accept": {"modes": ["text", "artifacts"]}}, {"Prefer": "execution=cloud"}))
print("created", run["id"], run["status"])
event = {}
with call("GET", run["run"], headers={"Accept": "text/event-stream"}) as stream:
    for line in stream:                                  # SSE: "event: …", "data: {…}", ""
        if not line.startswith(b"data: "):
            continue
        event = json.loads(line[6:])
        print(event["type"], json.dumps(event["data"])[:100])
        if event["type"] == "input":                     # the run asks: answer each key
            keys = [q["key"] for q in event["data"]["questions"]]
            call("POST", run["run"], {"answers": {k: answers.get(k, "") for k in keys}}).read()
        if event["type"] == "done":
            break
files = json.load(call("GET", run["run"].replace("?", "/artifacts?")))["artifacts"]
if files:
    open(files[0]["name"], "wb").write(rq.urlopen(files[0]["url"]).read())
print(json.dumps({"status": event["data"]["status"], "saved": [f["name"] for f in files[:1]]}))
