# Sourced by the *-on-gpu-machine.sh scripts: assembles the staged headless Chromium (the
# @sparticuz/chromium build, split to fit the GPU machine's transfer limit: .chrome/chromium.xz.part1,
# or /root/stage/ where a first run left it, + .chrome2/{chromium.xz.part2,chromium.sha256,rtlibs.tar.xz})
# into $RT, once per machine start, and sets the library path it needs.
RT=${RT:-/root/chr}; C=.chrome2
if ! (cd "$RT" 2>/dev/null && sha256sum -c "$PWD/$C/chromium.sha256" >/dev/null 2>&1); then
  P1=.chrome/chromium.xz.part1; [ -f $P1 ] || P1=/root/stage/chromium.xz.part1
  [ -f $P1 ] || { echo "chromium part 1 missing: stage it first (see README, Benchmarks)" >&2; exit 7; }
  mkdir -p "$RT"
  cat "$P1" "$C/chromium.xz.part2" | python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.stdin.buffer), sys.stdout.buffer, 1<<22)" > "$RT/chromium"
  tar xJf "$C/rtlibs.tar.xz" -C "$RT"; chmod +x "$RT/chromium"
  (cd "$RT" && sha256sum -c "$OLDPWD/$C/chromium.sha256")
fi
export LD_LIBRARY_PATH=$RT/lib:$RT HOME=/tmp/chome; mkdir -p $HOME
