#!/bin/bash
# Here, after `make book npm`: stages in .site/ (git-ignored) what book/bench/peer-yrrid.html needs
# on the GPU machine, and nothing more (one run there takes 64 MiB along): the page and its worker,
# the widgets' modules, the main and threads packages, the npm package's dist/ (.site/npm-dist/)
# and the entry's two files from .peer/yrrid-snarkify-2023/ (.site/peer-yrrid/; fetched code,
# copied there as benches/README.md says, never committed).
#   bash benches/browser/stage-peer-site.sh
set -eu
B=target/book
[ -f $B/bench/peer-yrrid.html ] || { echo "build the book first (make book npm)" >&2; exit 1; }
[ -f wasm-demo/npm/dist/index.js ] || { echo "build the npm package first (make npm)" >&2; exit 1; }
python3 benches/browser/peer-yrrid-json.py --check-peer .peer/yrrid-snarkify-2023
rm -rf .site && mkdir -p .site/bench .site/generated .site/peer-yrrid
cp $B/bench/peer-yrrid.html $B/bench/peer-yrrid.js $B/bench/peer-worker.js .site/bench/
cp -a $B/widgets .site/
cp -a $B/generated/pkg $B/generated/pkg-threads $B/generated/build-info.json .site/generated/
cp -a wasm-demo/npm/dist .site/npm-dist
cp .peer/yrrid-snarkify-2023/msm.wasm .peer/yrrid-snarkify-2023/worker.js .site/peer-yrrid/
du -sh .site
