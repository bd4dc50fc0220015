#!/usr/bin/env python3
"""Turns what benches/browser/drive.py saved from book/bench/peer-yrrid.html (SAVED/result.jsonl)
into the results file wasm-demo/bench/peer-yrrid.js writes where node is available:
DEST/msm-wasm-peer-yrrid-<browser>-<cpu>.json, the peer named by its repository and commit.

usage: peer-yrrid-json.py SAVED DEST --env ENV_TXT [--cpu-note "…"] [--commit C]
       peer-yrrid-json.py --check-peer DIR   (the entry's two files, as committed upstream?)
"""
import argparse
import datetime
import hashlib
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PEER = json.load(open(os.path.join(HERE, '..', '..', 'wasm-demo', 'bench', 'peer', 'yrrid-snarkify-2023.json')))

ap = argparse.ArgumentParser()
ap.add_argument('saved', nargs='?')
ap.add_argument('dest', nargs='?')
ap.add_argument('--env')
ap.add_argument('--cpu-note', default='')
ap.add_argument('--commit', default='')
ap.add_argument('--check-peer')
args = ap.parse_args()

if args.check_peer:
    for name, digest in PEER['sha256'].items():
        path = os.path.join(args.check_peer, name)
        if not os.path.exists(path):
            sys.exit(f"{path} is missing: stage the entry's files (benches/README.md)")
        got = hashlib.sha256(open(path, 'rb').read()).hexdigest()
        if got != digest:
            sys.exit(f"{path}: sha256 {got}, not the committed file's {digest}")
    sys.exit(0)

env = open(args.env).read()
model = re.search(r'Model name:\s*(.+)', env).group(1).strip()
version = re.search(r'Chromium (\d+(?:\.\d+)+)', env).group(1)
cores = int(re.search(r'^CPU\(s\):\s*(\d+)', env, re.M).group(1))
loads = [float(m) for m in re.findall(r'load (?:before|after): ([\d.]+)', env)]
saved = os.path.join(args.saved, 'result.jsonl')
if os.path.exists(saved):
    docs = [json.loads(line) for line in open(saved)]
    if len(docs) != 1:
        sys.exit(f'expected one result, found {len(docs)}')
    run = docs[0]
else:
    # the run ended before its last job: what every finished job posted (params.partial is set)
    partial = os.path.join(args.saved, 'partial.jsonl')
    if not os.path.exists(partial):
        sys.exit('no result and no partial result saved')
    run = [json.loads(line) for line in open(partial)][-1]
    print('the run did not finish: writing what its finished jobs measured', file=sys.stderr)
slug = lambda s: re.sub(r'^-+|-+$', '', re.sub(r'[^a-z0-9.]+', '-', re.sub(r'\((r|tm)\)', '', s.lower())))
name = slug(f'chromium-{version}-{model}-{cores}-cores')
build = json.load(open(os.path.join(HERE, '..', '..', '.site', 'generated', 'build-info.json')))
doc = {
    'suite': 'msm-wasm-peer-threads',
    'device': {
        'name': name, 'cpu': f'{model} ({cores} cores{", " + args.cpu_note if args.cpu_note else ""})', 'cores': cores,
        'browser': f'Chromium {version}', 'user_agent': run['env']['ua'],
        'backend': 'wasm32 in one cross-origin-isolated page of headless Chromium; each library on T Web Workers over one shared memory',
    },
    'protocol': run['protocol'],
    'params': {
        **run['params'],
        'runner': 'benches/browser/peer-yrrid-on-gpu-machine.sh + book/bench/peer-yrrid.html (drive.py; no node on that machine)',
        'host_load_1min': {'before': loads[0] if loads else None, 'after': loads[-1] if loads else None},
        'browser_flags': [],
    },
    **({'peer': {**PEER, 'files': list(PEER['sha256'])}} if run['params'].get('peer') else {}),
    'ours': {'package': 'wasm-demo/npm/dist (make npm) and book/generated/pkg-threads (make wasm-threads)',
             'commit': args.commit or build['commit'], 'built': build['built']},
    'results': run['results'],
    'verified': run['verified'],
    'commit': args.commit or build['commit'],
    'date': datetime.datetime.now(datetime.timezone.utc).isoformat(),
}
out = os.path.join(args.dest, f'msm-wasm-peer-yrrid-{name}.json')
with open(out, 'w') as f:
    f.write(json.dumps(doc, indent=2, ensure_ascii=False) + '\n')
print(out, 'verified' if doc['verified'] else 'NOT VERIFIED')
