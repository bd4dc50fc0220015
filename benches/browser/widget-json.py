#!/usr/bin/env python3
"""Turns what benches/browser/drive.py saved for a widget task (OUT/result.jsonl, OUT/../env.txt)
into a results file of the suite's schema, named as the node runners name theirs:
mont-wasm-<browser>-<cpu>[-wide-arithmetic].json, msm-wasm-<browser>-<cpu>[-wide-arithmetic].json.

usage: widget-json.py SAVED_DIR DEST_DIR --cpu-note "…" [--flag F …]
"""
import argparse
import json
import os
import re
import sys

ap = argparse.ArgumentParser()
ap.add_argument('saved')
ap.add_argument('dest')
ap.add_argument('--cpu-note', default='', help='appended to the CPU model, e.g. "16 cores, the GPU machine\'s host"')
ap.add_argument('--flag', action='append', default=[], help='a browser flag the run had')
ap.add_argument('--commit', default='')
args = ap.parse_args()

env = open(os.path.join(args.saved, '..', 'env.txt')).read()
model = re.search(r'Model name:\s*(.+)', env).group(1).strip()
version = re.search(r'Chromium (\d+(?:\.\d+)+)', env).group(1)
cores = re.search(r'^CPU\(s\):\s*(\d+)', env, re.M).group(1)
docs = [json.loads(line) for line in open(os.path.join(args.saved, 'result.jsonl'))]
if len(docs) != 1:
    sys.exit(f'expected one result, found {len(docs)}')
doc = docs[0]['result']
slug = lambda s: re.sub(r'^-+|-+$', '', re.sub(r'[^a-z0-9.]+', '-', re.sub(r'\((r|tm)\)', '', s.lower())))
name = slug(f'chromium-{version}-{model}-{cores}-cores')
cpu = f'{model} ({cores} cores{", " + args.cpu_note if args.cpu_note else ""})'
doc['device'] = {**doc.get('device', {}), 'name': name, 'cpu': cpu}
doc['params'] = {**doc.get('params', {}), **docs[0]['job'],
                 'runner': 'book/bench/run.html + benches/browser/drive.py (the widget task in its worker; no node on that machine)',
                 'seconds': round(docs[0]['wall_s']), 'browser_flags': args.flag}
if args.commit:
    doc['commit'] = args.commit
if not doc.get('verified'):
    sys.exit('the run is not verified: not written')
suite = doc['suite']
wide = any('wide-arithmetic' in f for f in args.flag)
out = os.path.join(args.dest, f'{suite}-{name}{"-wide-arithmetic" if wide else ""}.json')
with open(out, 'w') as f:
    f.write(json.dumps(doc, indent=2, ensure_ascii=False) + '\n')
print(out)
