#!/usr/bin/env python3
"""A fake Ollama for the editor tests: speaks /api/version, /api/tags,
/api/show and the /api/chat NDJSON stream on loopback.

The chat is scripted: the first turn calls search_code; once a tool result
is in the messages, the answer cites the evidence number that the tool
printed for greet/greet.go, streamed word by word with a delay (so an
editor can cancel mid-answer).

  python3 fake_ollama.py PORTFILE [--any-model] [--delay SECONDS]
      # writes the port it listens on; --any-model answers for every model
      # name (a client whose model setting cannot be changed), --delay sets
      # the pause between streamed words (default 0.15)
"""
import json
import re
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL = "fake:latest"
DELAY = 0.15  # seconds between streamed words
ANY_MODEL = False


def now():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        sys.stderr.write("fake-ollama: " + (fmt % args) + "\n")

    def reply(self, obj, code=200):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(n) or b"{}")

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        if self.path == "/api/version":
            return self.reply({"version": "0.6.5"})
        if self.path == "/api/tags":
            return self.reply({"models": [{"name": MODEL, "model": MODEL, "size": 1, "digest": "0" * 64,
                                           "details": {"family": "fake", "parameter_size": "1M"}}]})
        if self.path == "/":
            return self.reply("Ollama is running")
        self.reply({"error": "not found"}, 404)

    def do_POST(self):
        req = self.body()
        if self.path == "/api/show":
            if not ANY_MODEL and req.get("model", req.get("name")) not in (MODEL, "fake"):
                return self.reply({"error": "model not found"}, 404)
            return self.reply({"capabilities": ["completion", "tools"], "details": {"family": "fake"},
                               "model_info": {"fake.context_length": 32768}, "template": "", "parameters": ""})
        if self.path == "/api/chat":
            return self.chat(req)
        self.reply({"error": "not found"}, 404)

    def chunk(self, obj):
        line = (json.dumps(obj) + "\n").encode()
        self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
        self.wfile.flush()

    def chat(self, req):
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        msgs = req.get("messages", [])
        tool_results = [m.get("content", "") for m in msgs if m.get("role") == "tool"]
        base = {"model": req.get("model", MODEL), "created_at": now()}
        try:
            if not tool_results:
                self.chunk(dict(base, message={"role": "assistant", "content": "", "tool_calls": [
                    {"function": {"name": "search_code", "arguments": {"query": "Greeting greeting text"}}}]}, done=False))
            else:
                text = "\n".join(tool_results)
                m = re.search(r"\[(\d+)\][^\n]*greet/greet\.go", text) or re.search(r"\[(\d+)\]", text)
                n = m.group(1) if m else "1"
                answer = f"The greeting text is built by `Greeting`, which joins \"Hello, \" and the name [{n}]."
                for word in re.findall(r"\S+\s*", answer):
                    self.chunk(dict(base, message={"role": "assistant", "content": word}, done=False))
                    time.sleep(DELAY)
            self.chunk(dict(base, message={"role": "assistant", "content": ""}, done=True, done_reason="stop",
                            total_duration=1000, prompt_eval_count=100, eval_count=20))
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client cancelled


def main():
    global DELAY, ANY_MODEL
    args = sys.argv[2:]
    ANY_MODEL = "--any-model" in args
    if "--delay" in args:
        DELAY = float(args[args.index("--delay") + 1])
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    with open(sys.argv[1], "w") as f:
        f.write(str(srv.server_address[1]))
    srv.serve_forever()


if __name__ == "__main__":
    main()
