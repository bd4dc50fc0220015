#!/usr/bin/env bash
# The one set-up script (used by the Makefile, CI and the Pages workflow).
# Installs only what is missing, at pinned versions; on a set-up machine it finishes in seconds.
#   .ci/setup.sh book   Rust target + book tools + npm packages + vendored front-end assets
#   .ci/setup.sh test   all of the above + Chromium (WebGPU via SwiftShader), Firefox ESR, lavapipe (Vulkan on the CPU)
set -euo pipefail
cd "$(dirname "$0")/.."

MODE=${1:-book}
MDBOOK=0.5.4
MDBOOK_KATEX=0.10.0
MDBOOK_MERMAID=0.17.1
# wasm-bindgen-cli must match the wasm-bindgen library exactly: read it from Cargo.lock.
WASM_BINDGEN=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)

log() { printf '[setup] %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# The book's tools are compiled from crates.io (no registry this project can reach ships them
# prebuilt). Compiling them was most of a fresh machine's set-up, so:
#  - one target directory for all of them ($TOOLS/target), so that the dependencies they share
#    (clap, serde, pulldown-cmark, …) compile once, and a later version bump recompiles only
#    what changed;
#  - a quicker profile than each tool's own release one (no LTO, opt-level 2, many codegen
#    units): these tools run for seconds per build;
#  - each tool's own lock file (`--locked`), or ours in .ci/locks/ where the published one no
#    longer resolves (wasm-bindgen-cli 0.2.130 pins webpki-roots 1.0.11, which the registry no
#    longer serves: ours is the published lock with webpki-roots at 1.0.10), so that every
#    install resolves once and the same way on every machine.
TOOLS=${CARGO_HOME:-$HOME/.cargo}/fastmsm-tools
tool_build_env=(env CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
    CARGO_PROFILE_RELEASE_OPT_LEVEL=2 CARGO_PROFILE_RELEASE_DEBUG=false)

# cargo_tool BINARY CRATE VERSION: install CRATE@VERSION unless BINARY --version already reports it.
cargo_tool() {
    if "$1" --version 2>/dev/null | grep -qF "$3"; then return; fi
    local lock=.ci/locks/$2-$3.Cargo.lock
    if [ -f "$lock" ]; then
        # The crate's source with our lock file beside its manifest, installed from that path.
        local src=$TOOLS/src/$2-$3
        if [ ! -f "$src/Cargo.toml" ]; then
            log "fetching $2@$3 from crates.io"
            mkdir -p "$TOOLS/src"
            curl -sSfL "https://static.crates.io/crates/$2/$2-$3.crate" | tar xz -C "$TOOLS/src"
        fi
        cp "$lock" "$src/Cargo.lock"
        log "cargo install --path $2@$3 (lock file $lock)"
        "${tool_build_env[@]}" cargo install --locked --path "$src" --target-dir "$TOOLS/target"
    else
        log "cargo install $2@$3"
        "${tool_build_env[@]}" cargo install --locked "$2" --version "=$3" --target-dir "$TOOLS/target"
    fi
}

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    log "rustup target add wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
fi
# rust-src: the threads package rebuilds the standard library with atomics (Makefile: wasm-threads)
if ! rustup component list --installed | grep -q '^rust-src'; then
    log "rustup component add rust-src"
    rustup component add rust-src
fi
cargo_tool mdbook mdbook "$MDBOOK"
cargo_tool mdbook-katex mdbook-katex "$MDBOOK_KATEX"
cargo_tool mdbook-mermaid mdbook-mermaid "$MDBOOK_MERMAID"
cargo_tool wasm-bindgen wasm-bindgen-cli "$WASM_BINDGEN"

if [ "$MODE" = test ]; then
    missing=()
    [ -x /usr/bin/chromium ] || missing+=(chromium)
    # the second engine of the E2E suite (wasm-demo/lib/firefox.js), driven by puppeteer-core
    [ -x /usr/bin/firefox-esr ] || missing+=(firefox-esr)
    ls /usr/share/vulkan/icd.d/lvp_icd.*.json >/dev/null 2>&1 || missing+=(mesa-vulkan-drivers)
    # the third engine (wasm-demo/lib/webkit.js): WebKitGTK's MiniBrowser driven by WebKitWebDriver,
    # on a virtual display
    [ -x /usr/bin/WebKitWebDriver ] || missing+=(webkit2gtk-driver)
    [ -x /usr/bin/Xvfb ] || missing+=(xvfb)
    if [ ${#missing[@]} -gt 0 ]; then
        log "apt-get install ${missing[*]}"
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
    fi
fi

# npm packages from the committed lock file; reinstall only when the lock file changed.
stamp=wasm-demo/node_modules/.fastmsm-lock
if ! cmp -s wasm-demo/package-lock.json "$stamp" 2>/dev/null; then
    log "npm ci (wasm-demo)"
    (cd wasm-demo && npm ci --no-audit --no-fund --loglevel=error)
    cp wasm-demo/package-lock.json "$stamp"
fi

# Front-end libraries served with the book (no CDN): KaTeX CSS + fonts, mermaid, Chart.js.
vendor=book/vendor
modules=wasm-demo/node_modules
mkdir -p "$vendor/katex"
cp -u "$modules/katex/dist/katex.min.css" "$vendor/katex/"
cp -ru "$modules/katex/dist/fonts" "$vendor/katex/"
cp -u "$modules/mermaid/dist/mermaid.min.js" "$vendor/"
cp -u "$modules/chart.js/dist/chart.umd.min.js" "$vendor/"
# the service worker that isolates the page where the host sends no headers: at the site's root
cp -u "$modules/coi-serviceworker/coi-serviceworker.min.js" book/
log "ready ($MODE)"
