#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""cdp_pages.py CHROMIUM PROFILE DIR PAGE...: open every PAGE of DIR in
headless Chromium with the network off, speaking the DevTools protocol
over --remote-debugging-pipe (fd 3 commands in, fd 4 answers out, each
message JSON ended by a NUL), and print per page the requests it made
outside DIR and its console errors; exit 1 when there is any (or a page
does not load), 0 otherwise.  No package beyond Python's own."""
import json, os, select, subprocess, sys, time

chromium, profile, top = sys.argv[1], sys.argv[2], os.path.realpath(sys.argv[3])
pages = sys.argv[4:]
cmd_r, cmd_w = os.pipe()
ans_r, ans_w = os.pipe()


def child_fds():
    # Through fresh copies: a pipe end that already is fd 3 or 4 would
    # keep its close-on-exec flag across dup2 onto itself.
    a, b = os.dup(cmd_r), os.dup(ans_w)
    os.dup2(a, 3)
    os.dup2(b, 4)


proc = subprocess.Popen(
    [chromium, "--headless", "--no-sandbox", "--disable-gpu",
     "--remote-debugging-pipe", "--user-data-dir=" + profile,
     "--no-first-run", "--no-default-browser-check",
     "--disable-background-networking", "--disable-component-update",
     "--disable-sync", "--disable-extensions",
     "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
     "about:blank"],
    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
    stderr=open(os.path.join(profile, "chromium.log"), "w"),
    preexec_fn=child_fds, close_fds=False)
os.close(cmd_r)
os.close(ans_w)
buf = b""
next_id = 0
events = []


def send(method, params=None, session=None):
    global next_id
    next_id += 1
    msg = {"id": next_id, "method": method, "params": params or {}}
    if session:
        msg["sessionId"] = session
    os.write(cmd_w, json.dumps(msg).encode() + b"\0")
    return next_id


def read_msgs(timeout):
    global buf
    end = time.time() + timeout
    while True:
        while b"\0" in buf:
            m, buf = buf.split(b"\0", 1)
            yield json.loads(m)
        left = end - time.time()
        if left <= 0:
            return
        r, _, _ = select.select([ans_r], [], [], left)
        if not r:
            return
        chunk = os.read(ans_r, 1 << 20)
        if not chunk:
            raise SystemExit("chromium closed the pipe")
        buf += chunk


def call(method, params=None, session=None, timeout=30):
    want = send(method, params, session)
    for m in read_msgs(timeout):
        if m.get("id") == want:
            if "error" in m:
                raise SystemExit("%s: %s" % (method, m["error"]))
            return m.get("result", {})
        events.append(m)
    raise SystemExit("no answer to " + method)


bad = 0
try:
    tid = call("Target.createTarget", {"url": "about:blank"})["targetId"]
    sid = call("Target.attachToTarget", {"targetId": tid,
                                         "flatten": True})["sessionId"]
    for m in ("Network.enable", "Runtime.enable", "Log.enable",
              "Page.enable"):
        call(m, session=sid)
    call("Network.emulateNetworkConditions",
         {"offline": True, "latency": 0, "downloadThroughput": -1,
          "uploadThroughput": -1}, session=sid)
    for page in pages:
        path = os.path.realpath(os.path.join(top, page))
        events.clear()
        call("Page.navigate", {"url": "file://" + path}, session=sid)
        loaded = any(e.get("method") == "Page.loadEventFired"
                     for e in events)
        end = time.time() + 30
        while not loaded and time.time() < end:
            for e in read_msgs(1):
                events.append(e)
                loaded = loaded or e.get("method") == "Page.loadEventFired"
        # A moment for anything the page would fetch late.
        events.extend(read_msgs(0.3))
        outside, errors = [], []
        for e in events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Network.requestWillBeSent":
                u = p["request"]["url"]
                if not (u.startswith("file://" + top + "/") or
                        u.startswith("data:")):
                    outside.append(u)
            elif m == "Runtime.exceptionThrown":
                errors.append(p["exceptionDetails"].get("text", "exception"))
            elif m == "Runtime.consoleAPICalled" and p.get("type") == "error":
                errors.append("console.error")
            elif m == "Log.entryAdded" and \
                    p["entry"].get("level") == "error":
                errors.append(p["entry"].get("text", "log error"))
        print("%s: loaded=%s requests_outside=%d console_errors=%d%s" % (
            page, loaded, len(outside), len(errors),
            "".join(" [%s]" % x for x in (outside + errors)[:3])))
        if not loaded or outside or errors:
            bad += 1
    send("Browser.close")
finally:
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
sys.exit(1 if bad else 0)
