#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/) from the
test fixtures (tests/fixtures/data) and small hand-written inputs. Run it from anywhere;
it replaces the seed files it owns and leaves other files alone. The jwt seeds use a key
pair made with the openssl command each run, so they change when it is run again."""

import base64
import io
import json
import os
import struct
import subprocess
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures", "data")
CORPUS = os.path.join(HERE, "corpus")


def fixture(name):
    with open(os.path.join(FIXTURES, name), "rb") as f:
        return f.read()


def write(target, name, data):
    os.makedirs(os.path.join(CORPUS, target), exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(CORPUS, target, name), "wb") as f:
        f.write(data)


def members_text(xlsx, skip=()):
    """A workbook as the xlsx target's member list: "--- name" lines, then the bytes."""
    out = b""
    with zipfile.ZipFile(io.BytesIO(xlsx)) as z:
        for info in z.infolist():
            if info.is_dir() or any(info.filename.startswith(s) for s in skip):
                continue
            out += b"--- " + info.filename.encode() + b"\n" + z.read(info) + b"\n"
    return out


def small_zip(compression, files, **kw):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=compression) as z:
        for name, data in files:
            with z.open(name, "w", force_zip64=kw.get("zip64", False)) as f:
                f.write(data)
        if "comment" in kw:
            z.comment = kw["comment"]
    return buf.getvalue()


def xlsx():
    lean = ("docProps/", "xl/theme/")
    write("xlsx", "handmade.txt", members_text(fixture("handmade.xlsx")))
    write("xlsx", "exceljs.txt", members_text(fixture("exceljs.xlsx"), lean))
    write("xlsx", "date1904.txt", members_text(fixture("date1904.xlsx"), lean))
    write("xlsx", "handmade.xlsx", fixture("handmade.xlsx"))


def zips():
    write("zip", "handmade.xlsx", fixture("handmade.xlsx"))
    files = [("a.txt", b"hello"), ("dir/b.xml", b"<b>x</b>" * 4)]
    write("zip", "stored.zip", small_zip(zipfile.ZIP_STORED, files))
    write("zip", "deflated.zip", small_zip(zipfile.ZIP_DEFLATED, files))
    write("zip", "zip64.zip", small_zip(zipfile.ZIP_DEFLATED, files[:1], zip64=True))
    write("zip", "comment.zip", small_zip(zipfile.ZIP_STORED, files[:1], comment=b"note"))
    write("zip", "empty.zip", small_zip(zipfile.ZIP_STORED, []))


PARQUET = sorted(n for n in os.listdir(FIXTURES) if n.endswith(".parquet"))


def parquet():
    for name in PARQUET:
        write("parquet", name, fixture(name))


def thrift():
    for name in PARQUET:
        data = fixture(name)
        length = struct.unpack("<I", data[-8:-4])[0]
        write("thrift", name.replace(".parquet", ".footer"), data[-8 - length:-8])
        # The first page header follows the magic.
        write("thrift", name.replace(".parquet", ".page"), data[4:4 + 64])


def csv():
    # First byte: 0 csv, 1 tsv, 2 markdown, 3 text.
    write("csv", "quoted.csv", b"\x00" + b'name,"note, quoted",n\r\n"Rope","say ""hi""\nthere",12.5\r\nFender,,24\r\n')
    write("csv", "types.csv", b"\x00id,when,ok,code\n1,2024-03-01,true,007\n2,2024-03-01T10:00:00Z,false,08\n")
    write("csv", "utf16.csv", b"\x00" + "\ufeffa,b\n1,2\n".encode("utf-16-le"))
    write("csv", "table.tsv", b"\x01name\tprice\nRope\t12.5\nFender\t24\n")
    write("csv", "table.md", b"\x02Intro\n\n| name | price \\| eur |\n|:---|---:|\n| Rope | 12.5 |\n| Fender |\n")
    write("csv", "lines.txt", b"\x03- first item\n2. second\n\n  third  \r\n")


def jsontable():
    write("jsontable", "objects.json", '[{"name":"Rope","price":12.5,"tags":["a"]},{"price":24,"name":"Fender","extra":null},null]')
    write("jsontable", "arrays.json", '[["name","price"],["Rope",12.5],["Fender",24]]')
    write("jsontable", "scalars.json", '[1, "two", true, null, 2.5e3]')
    write("jsontable", "property.json", '{"meta":{"n":2},"items":[{"a\\u00e9":1,"b":"x"},{"b":"y"}]}')
    write("jsontable", "object.json", '\ufeff{"only":"row","n":1}')


def text():
    write("text", "csv.txt", "table.csv\ntext/csv; charset=utf-8\na,b\n1,2\n")
    write("text", "sniff.txt", "https://example.org/export?x=1\napplication/octet-stream\nname\tprice\nRope\t12.5\n")
    write("text", "markdown.txt", "notes\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    write("text", "utf16.txt", b"data.json\napplication/json\n" + "\ufeff[1]".encode("utf-16-be"))
    write("text", "invalid.txt", b"x\n\n\xc3\x28 \xed\xa0\x80 \xf4\x90\x80\x80")


def pdf():
    write("pdf", "two_pages.pdf", fixture("two_pages.pdf"))
    write("pdf", "encrypted.pdf", fixture("encrypted.pdf"))


def httpreply():
    # First byte: low nibble snippet limit / 16, high nibble read size (0: all at once).
    write("httpreply", "length.txt", b"\x34HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\nhelloHTTP/1.1")
    write("httpreply", "chunked.txt", b"\x02HTTP/1.1 202 Accepted\r\nTransfer-Encoding: gzip, chunked\r\n\r\n4;ext=1\r\nwiki\r\n0\r\nX-Trailer: 1\r\n\r\n")
    write("httpreply", "interim.txt", b"\x11HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n")
    write("httpreply", "close.txt", b"\x00HTTP/1.0 500 Internal Server Error\r\nConnection: keep-alive\r\n\r\nbody until the close")
    write("httpreply", "bad.txt", b"\x0fHTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n")


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt():
    with tempfile.TemporaryDirectory() as tmp:
        key = os.path.join(tmp, "ec.pem")
        subprocess.run(["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key], check=True)
        text = subprocess.run(["openssl", "ec", "-in", key, "-text", "-noout"], check=True, capture_output=True, text=True).stdout
        pub = text.split("pub:")[1].split("ASN1")[0]
        point = bytes.fromhex("".join(pub.split()).replace(":", ""))
        x, y = point[1:33], point[33:65]
        header = b64url(json.dumps({"alg": "ES256", "kid": "k1", "typ": "JWT"}).encode())
        claims = b64url(json.dumps({"iss": "https://idp.test", "aud": "ph", "sub": "u1", "email": "a@b.test", "email_verified": True, "exp": 4102444800}).encode())
        signing = (header + "." + claims).encode()
        der = subprocess.run(["openssl", "dgst", "-sha256", "-sign", key], input=signing, check=True, capture_output=True).stdout
        # DER ECDSA-Sig-Value to r|s.
        r_len = der[3]
        r = der[4:4 + r_len]
        s = der[6 + r_len:6 + r_len + der[5 + r_len]]
        sig = r[-32:].rjust(32, b"\0") + s[-32:].rjust(32, b"\0")
        token = header + "." + claims + "." + b64url(sig)
        jwks = {"keys": [{"kty": "EC", "crv": "P-256", "kid": "k1", "use": "sig", "alg": "ES256", "x": b64url(x), "y": b64url(y)}]}
        write("jwt", "es256.txt", token + "\n" + json.dumps(jwks))
        rsa = os.path.join(tmp, "rsa.pem")
        subprocess.run(["openssl", "genrsa", "-out", rsa, "2048"], check=True, capture_output=True)
        mod = subprocess.run(["openssl", "rsa", "-in", rsa, "-noout", "-modulus"], check=True, capture_output=True, text=True).stdout
        n = bytes.fromhex(mod.strip().split("=")[1])
        header = b64url(json.dumps({"alg": "RS256", "typ": "JWT"}).encode())
        signing = (header + "." + claims).encode()
        sig = subprocess.run(["openssl", "dgst", "-sha256", "-sign", rsa], input=signing, check=True, capture_output=True).stdout
        jwks = {"keys": [{"kty": "RSA", "n": b64url(n), "e": "AQAB"}, {"kty": "oct", "k": "c2VjcmV0"}]}
        write("jwt", "rs256.txt", header + "." + claims + "." + b64url(sig) + "\n" + json.dumps(jwks))
    write("jwt", "none.txt", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.\n{\"keys\":[]}")


def alloweddomains():
    # First byte: bit 0 picks exact_host; entries, an empty line, then URLs.
    write("alloweddomains", "mixed.txt", "\x00example.com\n*.shop.example.co.uk\n=api.example.org\nhttps://Sub.Example.NET:8443/path?q=1\nbücher.de\n[::1]\n10.0.0.1\n\nhttps://www.example.com/a\nhttp://a.b.shop.example.co.uk/\nhttps://xn--bcher-kva.de\nhttp://[::1]:8080/\nftp://example.com/\n")
    write("alloweddomains", "exact.txt", "\x01localhost\nco.uk\n*.1.2.3.4\nexample.com.\n\nhttp://localhost/\nhttps://example.com./x\n")


def siteconfig():
    config = {
        "shortcuts": [{"id": "book", "label": "Book a table", "kind": "journey", "prompt": "Book",
                       "url": "https://example.com/book?token=x", "engagementKind": "task",
                       "steps": [{"title": "Pick a day", "url": "https://example.com/d"}], "enabled": True}],
        "businessType": "hospitality",
        "experience": {"anchor": "bottom-left", "liveCardCount": 2, "theme": {"accentColor": "#12abEF", "mode": "dark"}},
        "greeting": {"text": "Hello", "delay": 0, "duration": 600000, "disabled": None},
        "voice": {"enabled": True, "language": "en-GB", "autoStopMs": 300},
        "aiAccess": {"confirmation": "auto", "crossHost": "allow", "maxHops": 10},
        "analytics": {"consent": {"provider": "wix", "category": "analytics"}, "displayPersonalData": True},
        "agentDiscovery": {"siteManifestUrl": "https://user:pw@example.com/m.json", "discoverySurface": {"mode": "inline"}},
        "pageConfig": {"adaptiveSettleMaxWaitMs": 30000},
        "knowledge": [{"id": "faq.1", "title": "Hours", "body": "9-5", "kind": "faq"}],
        "capabilities": {"embed": False, "cloudScrape": True},
        "sitePolicy": {"siteMode": "test", "externalAllowDomains": ["example.com", "*.example.org"],
                       "mascot": {"enabled": True, "name": "Pip", "avatarUrl": ""},
                       "shortcutLimits": {"maxShortcuts": 100, "maxVisible": 20}},
    }
    write("siteconfig", "full.json", json.dumps(config))
    write("siteconfig", "nulls.json", json.dumps({"shortcuts": None, "voice": {"language": "x"}, "unknown": 1, "apiKey": "s"}))


def mcp():
    # First byte: protocol version (value % 3: 2025-06-18, 2025-03-26, 2024-11-05); bit 7
    # sends the MCP-Protocol-Version header.
    def rpc(method, params=None, id=2):
        m = {"jsonrpc": "2.0", "method": method}
        if id is not None:
            m["id"] = id
        if params is not None:
            m["params"] = params
        return m
    call = rpc("tools/call", {"name": "configure", "arguments": {"siteId": "s1", "mode": "live", "limit": 5,
                                                              "ratio": None, "tags": ["a"], "patch": {"enabled": True, "nested": {"depth": 1}}}})
    write("mcp", "call.json", b"\x80" + json.dumps(call).encode())
    write("mcp", "list.json", b"\x00" + json.dumps(rpc("tools/list")).encode())
    batch = [rpc("notifications/initialized", id=None), rpc("ping", id="p"), rpc("tools/call", {"name": "configure", "arguments": {"mode": "paused", "siteId": "x"}}, id=3),
             {"jsonrpc": "2.0", "id": 9, "result": {}}, rpc("nope", id=4)]
    write("mcp", "batch.json", b"\x01" + json.dumps(batch).encode())
    write("mcp", "invalid.json", b"\x82" + json.dumps(rpc("tools/call", {"name": "configure", "arguments": {"siteId": "", "other": 1}})).encode())
    # Bit 6: the stateless transport, "<version>\n<Mcp-Method>\n<Mcp-Name>\n<body>".
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}
    def modern(method, name, params):
        params = dict(params, _meta=meta)
        return b"\x40" + b"\n".join([b"2026-07-28", method.encode(), name.encode(),
                                      json.dumps(rpc(method, params)).encode()])
    write("mcp", "stateless-call.json", modern("tools/call", "configure", {"name": "configure", "arguments": {"siteId": "s1"}}))
    write("mcp", "stateless-sentinel.json", modern("tools/call", "=?base64?Y29uZmlndXJl?=", {"name": "configure", "arguments": {"siteId": "s1"}}))
    write("mcp", "stateless-mismatch.json", modern("tools/list", "", {"name": "configure"}))
    write("mcp", "stateless-discover.json", modern("server/discover", "", {}))
    write("mcp", "stateless-listen.json", modern("subscriptions/listen", "", {"notifications": {"toolsListChanged": True}}))


def pageagent():
    write("pageagent", "act.json", json.dumps({"ok": True, "element": {"id": "e12", "role": "button", "name": "Add to cart"}, "selected": ["S"]}))
    write("pageagent", "act_failed.json", json.dumps({"ok": False, "error": "no element named \"Buy\""}))
    write("pageagent", "extract.json", json.dumps({"data": {"name": "Compass", "offers": {"price": "49.90"}}, "missing": ["sku"], "sources": {"name": "json-ld"}, "next": {"id": "e3"}}))
    write("pageagent", "snapshot.json", json.dumps({"url": "https://example.com/", "title": "T\u00e9", "contentType": "text/html", "text": "Hello\nWorld", "markdown": "# Hello", "ariaSnapshot": "- heading \"Hello\" [level=1]", "extractMs": 3}))
    write("pageagent", "scalar.json", '"just text"')


def trustedproxies():
    # Lines: the http.trustedProxies list, the TCP peer, Forwarded, X-Forwarded-For.
    write("trustedproxies", "xff.txt", "127.0.0.1, ::1, 10.0.0.0/8\n127.0.0.1\n\n1.1.1.1, 203.0.113.5:5123, 10.0.0.4")
    write("trustedproxies", "forwarded.txt", "127.0.0.1 fd00::/8\n::ffff:127.0.0.1\nfor=192.0.2.43, For=\"[2001:db8:cafe::17]:4711\";proto=https;by=_proxy, for=\"_gazonk\"\n")
    write("trustedproxies", "both.txt", "127.0.0.0/8\n127.0.0.1\nfor=\"203.0.113.5\";host=\"a,b\"\n203.0.113.5\n")
    write("trustedproxies", "untrusted.txt", "10.0.0.0/33, proxy.local\n192.0.2.7\nfor=unknown\n[::1]:80, unknown, 127.1\n")


def cdpfilter():
    # A DevTools client's command as it arrives on a session's WebSocket (CdpFilter).
    write("cdpfilter", 'create-context.json', '{"id":2,"method":"Target.createBrowserContext","params":{"proxyServer":"direct://"}}')
    write("cdpfilter", 'create-file-target.json', '{"id":1,"method":"Target.createTarget","params":{"url":"file:///etc/passwd"}}')
    write("cdpfilter", 'downloads.json', '{"id":3,"method":"Browser.setDownloadBehavior","params":{"behavior":"allowAndName","downloadPath":"/root","browserContextId":"CTX"}}')
    write("cdpfilter", 'fetch-enable.json', '{"id":6,"method":"Fetch.enable","params":{},"sessionId":"S","result":{}}')
    write("cdpfilter", 'navigate-javascript.json', '{"id":4,"method":"Page.navigate","params":{"url":" \\tjava\\nscript:alert(1)"},"sessionId":"S"}')
    write("cdpfilter", 'storage-other.json', '{"id":8,"method":"Storage.getCookies","params":{"browserContextId":"OTHER"}}')
    write("cdpfilter", 'target-created.json', '{"id":7,"method":"Target.targetCreated","params":{"targetInfo":{"targetId":"T","type":"page"}}}')
    write("cdpfilter", 'upload.json', '{"id":5,"method":"DOM.setFileInputFiles","params":{"files":["/etc/passwd"],"backendNodeId":3},"sessionId":"S"}')

def sitemap():
    # First byte even: a sitemap (urlset or index); odd: robots.txt, paths on its last line.
    write("sitemap", "urlset.xml", "\x00<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://a.example/one</loc></url></urlset>")
    write("sitemap", "index.xml", "\x02<sitemapindex><sitemap><loc>https://a.example/s.xml</loc></sitemap><sitemap><loc>/rel</loc></sitemap></sitemapindex>")
    write("sitemap", "robots.txt", "\x01User-agent: *\nDisallow: /private\nAllow: /private/open\nDisallow: /*.pdf$\nSitemap: https://a.example/s.xml\n/private/open/x.pdf")
    write("sitemap", "robots-stars.txt", "\x03User-agent: other\nUser-agent: pilothouse\nDisallow: /***x$\n/aaaaaaaaaaaaaaaaaaaaaaa")


def firecrawlrequest():
    # First byte: 0 scrape v2, 1 scrape v1, 2 scrapeOptions, 3 extract, 4 agent; then JSON.
    write("firecrawlrequest", "scrape-actions.json", "\x00" + json.dumps({
        "url": "a.example", "formats": ["markdown", {"type": "json", "prompt": "p"}],
        "includeTags": ["main"], "excludeTags": ["nav"], "waitFor": 10, "timeout": 5000,
        "actions": [{"type": "click", "selector": "#a", "all": True}, {"type": "write", "text": "x"},
                    {"type": "press", "key": "Enter"}, {"type": "wait", "milliseconds": 5},
                    {"type": "scroll", "direction": "up"}, {"type": "scrape"},
                    {"type": "executeJavascript", "script": "1"}]}))
    write("firecrawlrequest", "scrape-v1.json", "\x01" + json.dumps({
        "url": "https://a.example", "formats": ["extract"], "extract": {"schema": {"type": "object"}}}))
    write("firecrawlrequest", "scrape-options.json", "\x02" + json.dumps({
        "formats": ["links"], "actions": [{"type": "wait", "selector": ".x"}]}))
    write("firecrawlrequest", "extract.json", "\x03" + json.dumps({
        "urls": ["a.example/1", "b.example/*"], "prompt": "p", "systemPrompt": "s"}))
    write("firecrawlrequest", "agent.json", "\x04" + json.dumps({
        "prompt": "p", "urls": ["a.example"], "schema": {"type": "array"}, "model": "m"}))


def main():
    for make in (xlsx, zips, parquet, thrift, csv, jsontable, text, pdf, httpreply, jwt,
                 alloweddomains, siteconfig, mcp, pageagent, trustedproxies, cdpfilter, sitemap,
                 firecrawlrequest):
        make()


if __name__ == "__main__":
    main()
