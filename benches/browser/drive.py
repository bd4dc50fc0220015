#!/usr/bin/env python3
"""Serves the built book on 127.0.0.1, opens one page of it in a headless Chromium, and saves what
the page POSTs (book/bench/run.html posts each job's progress, result and error) until it POSTs
/done or the time runs out. For machines with python3 but no node (the GPU machine); elsewhere
the node runners in wasm-demo/bench/ do the same through playwright-core.

usage: drive.py --site DIR --out DIR --chrome PATH --page PATH [--isolate] [--timeout S] -- FLAGS…
With --isolate every response carries COOP/COEP, so the page is cross-origin isolated.
Saved: OUT/<name>.jsonl, one JSON document per POST of /post?name=<name>.
"""
import argparse
import http.server
import os
import subprocess
import sys
import threading
import time
import urllib.parse

ap = argparse.ArgumentParser()
ap.add_argument('--site', required=True)
ap.add_argument('--out', required=True)
ap.add_argument('--chrome', required=True)
ap.add_argument('--page', required=True)
ap.add_argument('--isolate', action='store_true')
ap.add_argument('--timeout', type=float, default=300)
ap.add_argument('flags', nargs=argparse.REMAINDER)
args = ap.parse_args()
os.makedirs(args.out, exist_ok=True)
finished = threading.Event()
start = time.time()
TYPES = {'.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css',
         '.json': 'application/json', '.wasm': 'application/wasm', '.svg': 'image/svg+xml',
         '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.png': 'image/png'}


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **kw):
        super().__init__(*a, directory=args.site, **kw)

    def guess_type(self, path):
        return TYPES.get(os.path.splitext(path)[1], 'application/octet-stream')

    def end_headers(self):
        if args.isolate:
            self.send_header('Cross-Origin-Opener-Policy', 'same-origin')
            self.send_header('Cross-Origin-Embedder-Policy', 'require-corp')
        self.send_header('Cache-Control', 'no-cache')
        super().end_headers()

    def log_message(self, *a):
        pass

    def do_POST(self):
        url = urllib.parse.urlparse(self.path)
        body = self.rfile.read(int(self.headers.get('content-length', 0)))
        if url.path == '/post':
            name = urllib.parse.parse_qs(url.query).get('name', ['post'])[0]
            with open(os.path.join(args.out, f'{name}.jsonl'), 'ab') as f:
                f.write(body + b'\n')
            print(f'[{time.time() - start:7.1f}s] {name}: {body[:400].decode("utf-8", "replace")}', flush=True)
        elif url.path == '/done':
            finished.set()
        self.send_response(204)
        self.end_headers()


server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = f'http://127.0.0.1:{server.server_address[1]}/{args.page}'
log = open(os.path.join(args.out, 'chrome.log'), 'wb')
chrome = subprocess.Popen([args.chrome, *[f for f in args.flags if f != '--'], url], stdout=log, stderr=subprocess.STDOUT)
ok = finished.wait(args.timeout)
chrome.terminate()
try:
    chrome.wait(5)
except subprocess.TimeoutExpired:
    chrome.kill()
server.shutdown()
print(f'# {"done" if ok else "timed out"} after {time.time() - start:.1f}s', flush=True)
sys.exit(0 if ok else 1)
