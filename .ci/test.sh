#!/usr/bin/env bash
# `make test`: the whole suite, phase by phase, each phase timed. At the end (also when a phase
# fails) it prints the phases with their wall-clock times, the longest test binaries and browser
# test suites inside them, and writes the same to target/test-phases.json, so that every run says
# where its time went (README "Tests" keeps the measured cold and warm times).
set -uo pipefail
cd "$(dirname "$0")/.."

mkdir -p target
log_dir=target/test-logs
rm -rf "$log_dir" && mkdir -p "$log_dir"
names=() seconds=() statuses=()
started=$(date +%s)

summary() {
    local total=$(( $(date +%s) - started ))
    printf '\n== make test: phases (wall clock) ==\n'
    local i json='' sep=''
    for i in "${!names[@]}"; do
        printf '%-44s %6.1f min  %s\n' "${names[$i]}" "$(awk "BEGIN{print ${seconds[$i]}/60}")" "${statuses[$i]}"
        json+="$sep{\"phase\":\"${names[$i]}\",\"seconds\":${seconds[$i]},\"status\":\"${statuses[$i]}\"}"
        sep=','
    done
    printf '%-44s %6.1f min\n' 'total' "$(awk "BEGIN{print $total/60}")"
    # Inside the Rust phase: each test binary's own time, as libtest reports it.
    if [ -f "$log_dir/rust-tests.log" ]; then
        printf '\nRust test binaries over 10 s:\n'
        # (a file's crate: the library whose unit tests ran just before it)
        awk '/^ *Running /{b=$NF; sub(/.*\//, "", b); sub(/-[0-9a-f]+\)$/, "", b); src=($2=="unittests") ? $3 : $2
                if (src=="src/lib.rs") crate=b; bin=crate ": " src}
             /^test result:/{for(i=1;i<=NF;i++) if($i=="in"){t=$(i+1); sub(/s$/,"",t); if(t+0>10) printf "  %-40s %6.1f s\n", bin, t}}' \
            "$log_dir/rust-tests.log"
    fi
    # Inside the browser phase: each top-level suite's time over 5 s (files run two at a time, so
    # node --test reports suites, not files; the times overlap).
    if [ -f "$log_dir/browser-tests.log" ]; then
        printf '\nBrowser test suites over 5 s (two files at a time):\n'
        awk '/^(ok|not ok) [0-9]+ - /{name=$0; sub(/^(ok|not ok) [0-9]+ - /, "", name); top=1; next}
             top && /^  duration_ms:/{if ($2 >= 5000) printf "  %-64s %6.1f s\n", substr(name, 1, 64), $2/1000; top=0}' \
            "$log_dir/browser-tests.log"
    fi
    printf '{"total_seconds":%d,"machine":"%s","cores":%d,"phases":[%s]}\n' "$total" \
        "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')" "$(nproc)" "$json" > target/test-phases.json
    printf '(logs: %s; summary: target/test-phases.json)\n' "$log_dir"
}
trap summary EXIT

# phase NAME LOG COMMAND...: runs COMMAND, its output to the terminal and to LOG; stops the run on
# a failure (the summary still prints).
phase() {
    local name=$1 logfile=$log_dir/$2 t0
    shift 2
    printf '\n== %s: %s ==\n' "$name" "$*"
    t0=$(date +%s)
    "$@" 2>&1 | tee "$logfile"
    local status=${PIPESTATUS[0]}
    names+=("$name") seconds+=($(( $(date +%s) - t0 )))
    if [ "$status" -ne 0 ]; then
        statuses+=("FAILED (exit $status)")
        exit "$status"
    fi
    statuses+=(ok)
}

phase 'set-up (.ci/setup.sh test)' setup.log .ci/setup.sh test
phase 'WebAssembly packages and the book' book.log make --no-print-directory book
phase 'npm package' npm.log make --no-print-directory npm
phase 'Rust: compile the tests' rust-build.log make --no-print-directory test-rust-build
phase 'Rust: tests (GPU ones on lavapipe)' rust-tests.log make --no-print-directory test-rust-run
phase 'Rust: default features, cargo package' rust-package.log make --no-print-directory test-rust-package
phase 'type check (tsc)' typecheck.log make --no-print-directory typecheck
phase 'browser tests (Chromium, Firefox ESR, WebKit)' browser-tests.log make --no-print-directory test-e2e
