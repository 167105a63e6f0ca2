#!/usr/bin/env bash
# Editor tests against the real askls binary:
#   1. Neovim on the host (0.7.2 on bookworm): retrieval mode and model mode
#      (a fake Ollama speaking /api/chat NDJSON on loopback);
#   2. the newest Neovim in the Debian sid chroot (same tests);
#   3. Helix in the chroot, driven through tmux: the binding asks, the
#      answer opens, the citations are diagnostics; ASKLS_HX_ROUNDS (default
#      8) rounds of 4 key tries.
# Neovim is also driven through tmux on the host and in the chroot
# (editors/nvim/test/keys.sh): tries of the keys that ask and open an
# answer, each ending in a jump after an edit; ASKLS_NVIM_TRIES (default
# 30) in the chroot's newest Neovim, ASKLS_NVIM_TRIES_HOST (default 9, with
# the reopened thread 10 jumps) on the host's 0.7.
# The chroot comes from .ci/install.d/editors.sh. A level whose tools are
# missing is skipped with the reason, or fails when ASKLS_REQUIRE_ALL=1.
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=$(pwd)
REQUIRE="${ASKLS_REQUIRE_ALL:-0}"
SID="${ASKLS_SID_DIR:-${HOME:-/root}/.cache/askls-ci/sid}"
# Optional: Debian trixie (Neovim 0.10, Helix 25.01), made by the install
# script only with ASKLS_EDITORS_TRIXIE=1; tested when it is there.
TRIXIE="${ASKLS_TRIXIE_DIR:-${HOME:-/root}/.cache/askls-ci/trixie}"
PASSED=0
FAILED=0
SKIPPED=0

say() { echo "editors: $*"; }
skip() {
  if [ "$REQUIRE" = 1 ]; then
    say "FAIL (ASKLS_REQUIRE_ALL=1): $*"
    FAILED=$((FAILED + 1))
  else
    say "SKIP: $*"
    SKIPPED=$((SKIPPED + 1))
  fi
}
result() { # name, exit status
  if [ "$2" = 0 ]; then PASSED=$((PASSED + 1)); say "PASS: $1"; else FAILED=$((FAILED + 1)); say "FAIL: $1"; fi
}

WORK=$(mktemp -d /tmp/askls-editors.XXXXXX)
FAKE_PID=
FAKE_KEYS_PID=
MOUNTS=() # mounted by this script, unmounted in reverse order
cleanup() {
  [ -n "$FAKE_PID" ] && kill "$FAKE_PID" 2>/dev/null || true
  [ -n "$FAKE_KEYS_PID" ] && kill "$FAKE_KEYS_PID" 2>/dev/null || true
  tmux kill-session -t "askls-hx-$$" 2>/dev/null || true
  tmux kill-session -t "askls-nvim-keys-$$" 2>/dev/null || true
  local k m left=0
  for ((k = ${#MOUNTS[@]} - 1; k >= 0; k--)); do
    m=${MOUNTS[k]}
    if mountpoint -q "$m" 2>/dev/null; then umount "$m" 2>/dev/null || umount -l "$m" || true; fi
  done
  for m in "${MOUNTS[@]}"; do
    case "$m" in */askls-test | */askls-src) rmdir "$m" 2>/dev/null || true ;; esac
    grep -qF " $m " /proc/mounts && left=1
  done
  # Never delete through a mount that is still there.
  if [ "$left" = 1 ]; then
    say "WARNING: a mount is still there; leaving $WORK"
  else
    rm -rf "$WORK"
  fi
}
mnt() { # mount ARGS... TARGET (TARGET last), remembered for cleanup
  local target=${*: -1}
  mountpoint -q "$target" && return 0
  mount "$@"
  MOUNTS+=("$target")
}
trap cleanup EXIT

# One static binary serves the host and the chroot.
say "building askls (CGO_ENABLED=0)"
mkdir -p "$WORK/bin" "$WORK/home"
CGO_ENABLED=0 go build -o "$WORK/bin/askls" ./cmd/askls

# A small Go workspace; each run gets its own copy (and its own index).
fixture() {
  mkdir -p "$1/greet"
  printf 'module example.com/hello\n\ngo 1.22\n' >"$1/go.mod"
  cat >"$1/greet/greet.go" <<'EOF'
package greet

// Greeting builds the greeting text for a name.
func Greeting(name string) string {
	if name == "" {
		name = "world"
	}
	return "Hello, " + name + "!"
}
EOF
  cat >"$1/main.go" <<'EOF'
package main

import (
	"fmt"
	"os"

	"example.com/hello/greet"
)

// main prints the greeting for the first argument.
func main() {
	name := ""
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	fmt.Println(greet.Greeting(name))
}
EOF
}

# Does this askls serve LSP at all? (an initialize over stdio)
server_ready() {
  local req='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}'
  # stdin stays open a moment: the server ends at EOF.
  { printf 'Content-Length: %d\r\n\r\n%s' "${#req}" "$req"; sleep 3; } |
    HOME="$WORK/home" timeout 10 "$WORK/bin/askls" serve 2>/dev/null | head -c 4000 | grep -q '"capabilities"'
}
if ! server_ready; then
  skip "askls serve does not answer initialize yet: no editor test can run"
  say "$PASSED passed, $FAILED failed, $SKIPPED skipped"
  [ "$FAILED" = 0 ]
  exit
fi

# The fake Ollama (python3 on the host; the chroot shares the loopback).
if command -v python3 >/dev/null; then
  python3 editors/nvim/test/fake_ollama.py "$WORK/port" 2>"$WORK/fake-ollama.log" &
  FAKE_PID=$!
  for _ in $(seq 150); do [ -s "$WORK/port" ] && break; sleep 0.1; done
fi
OLLAMA_URL=
[ -s "$WORK/port" ] && OLLAMA_URL="http://127.0.0.1:$(cat "$WORK/port")"
# A second one for the key tries, streaming its answer in about a second.
KEYS_OLLAMA_URL=
if [ -n "$OLLAMA_URL" ]; then
  python3 editors/nvim/test/fake_ollama.py "$WORK/port-keys" --delay 0.06 2>"$WORK/fake-ollama-keys.log" &
  FAKE_KEYS_PID=$!
  for _ in $(seq 150); do [ -s "$WORK/port-keys" ] && break; sleep 0.1; done
  [ -s "$WORK/port-keys" ] && KEYS_OLLAMA_URL="http://127.0.0.1:$(cat "$WORK/port-keys")"
fi

# nvim_keys LABEL TRIES BIN HOME [PREFIX...]: Neovim's own UI in tmux
# (editors/nvim/test/keys.sh), model mode, its tries and jumps counted.
# BIN and HOME as the editor sees them; the chroot sees $WORK at /askls-test.
nvim_keys() {
  local label=$1 tries=$2 bin=$3 home=$4 view=$WORK
  shift 4
  [ $# -gt 0 ] && view=/askls-test
  if ! command -v tmux >/dev/null; then skip "neovim $label keys: tmux is not installed"; return; fi
  if [ -z "$KEYS_OLLAMA_URL" ]; then skip "neovim $label keys: python3 missing for the fake Ollama"; return; fi
  fixture "$WORK/ws-$label-keys"
  mkdir -p "$WORK/keys-$label"
  local status=0
  KEYS_WS="$WORK/ws-$label-keys" KEYS_WS_VIEW="$view/ws-$label-keys" KEYS_HOME="$WORK/${home#"$view"/}" KEYS_HOME_VIEW="$home" \
    KEYS_NVIM_DIR="$NVIM_DIR" KEYS_OUT="$WORK/keys-$label" KEYS_OUT_VIEW="$view/keys-$label" \
    ASKLS_BIN="$bin" ASKLS_OLLAMA="$KEYS_OLLAMA_URL" ASKLS_NVIM_SESSION="askls-nvim-keys-$$" ASKLS_NVIM_TRIES="$tries" \
    timeout 900 bash editors/nvim/test/keys.sh "$@" >"$WORK/nvim-$label-keys.log" 2>&1 || status=$?
  if [ "$status" = 0 ]; then
    grep -vE '^ok - neovim keys: try [0-9]+:' "$WORK/nvim-$label-keys.log" | sed 's/^/  /'
  else
    sed 's/^/  /' "$WORK/nvim-$label-keys.log"
  fi
  result "neovim $label, keys in tmux (ask, type, open, jump)" "$status"
}

# nvim_suite LABEL BIN WS_HERE WS_THERE HOME [PREFIX...]: the headless
# tests in both modes. PREFIX is empty on the host, "chroot SID env -i ..."
# in the chroot; BIN, WS_THERE and HOME are paths as the editor sees them.
nvim_suite() {
  local label=$1 bin=$2 ws=$3 wsview=$4 home=$5
  shift 5
  local mode url
  for mode in retrieval model; do
    url=
    if [ "$mode" = model ]; then
      if [ -z "$OLLAMA_URL" ]; then skip "$label model mode: python3 missing for the fake Ollama"; continue; fi
      url=$OLLAMA_URL
    fi
    fixture "$ws-$mode"
    local status=0
    (cd "$REPO/editors/nvim" && timeout 300 "$@" env HOME="$home" XDG_CACHE_HOME="$home/.cache" \
      XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" XDG_STATE_HOME="$home/.local/state" \
      ASKLS_BIN="$bin" ASKLS_FIXTURE="$wsview-$mode" ASKLS_OLLAMA="$url" \
      nvim --headless -u "$NVIM_DIR/test/minimal_init.lua" -c "luafile $NVIM_DIR/test/run.lua") \
      >"$WORK/nvim-$label-$mode.log" 2>&1 || status=$?
    grep -E '^(ok|not ok) - |passed, .* failed' "$WORK/nvim-$label-$mode.log" | sed "s/^/  /" || true
    [ "$status" = 0 ] || sed -n '1,80p' "$WORK/nvim-$label-$mode.log" | grep -v '^ok - ' | sed 's/^/  | /'
    result "neovim $label, $mode mode" "$status"
  done
}

# 1. Neovim on the host.
if command -v nvim >/dev/null; then
  NVIM_DIR="$REPO/editors/nvim"
  nvim_suite host "$WORK/bin/askls" "$WORK/ws-host" "$WORK/ws-host" "$WORK/home"
  # 30 tries on the newest Neovim (the sid chroot, below); fewer on 0.7.
  nvim_keys host "${ASKLS_NVIM_TRIES_HOST:-9}" "$WORK/bin/askls" "$WORK/home"
else
  skip "neovim is not installed on the host (bash .ci/install.d/editors.sh)"
fi

# chroot_level NAME DIR: Neovim and Helix in a Debian chroot, seeing the
# work folder (binary, fixtures, homes) at /askls-test and the repo,
# read-only, at /askls-src.
chroot_level() {
  local name=$1 dir=$2 status
  mkdir -p "$dir/askls-test" "$dir/askls-src" "$WORK/home-$name"
  mnt -t proc proc "$dir/proc"
  mnt --bind /dev "$dir/dev"
  mnt --bind /dev/pts "$dir/dev/pts"
  mnt --bind "$WORK" "$dir/askls-test"
  mnt --bind "$REPO" "$dir/askls-src"
  mount -o remount,bind,ro "$dir/askls-src"
  local chroot_cmd=(chroot "$dir" env -i PATH=/askls-test/bin:/usr/bin:/bin LANG=C.UTF-8 TERM=xterm-256color)
  NVIM_DIR=/askls-src/editors/nvim
  local hxv
  hxv=$(chroot "$dir" hx --version | awk '{print $2}')
  say "$name chroot: $(chroot "$dir" nvim --version | head -n1), helix $hxv"
  nvim_suite "$name" /askls-test/bin/askls "$WORK/ws-$name" "/askls-test/ws-$name" "/askls-test/home-$name" "${chroot_cmd[@]}"
  nvim_keys "$name" "${ASKLS_NVIM_TRIES:-30}" /askls-test/bin/askls "/askls-test/home-$name" "${chroot_cmd[@]}"
  # Neovim 0.11+: vim.lsp.enable('askls') alone, from the shipped lsp/askls.lua.
  if "${chroot_cmd[@]}" nvim --headless --clean -c 'if has("nvim-0.11") | qa! | else | cq | endif' >/dev/null 2>&1; then
    fixture "$WORK/ws-$name-native"
    status=0
    (cd "$REPO/editors/nvim" && timeout 120 "${chroot_cmd[@]}" env HOME="/askls-test/home-$name" \
      XDG_CACHE_HOME="/askls-test/home-$name/.cache" ASKLS_BIN=/askls-test/bin/askls ASKLS_FIXTURE="/askls-test/ws-$name-native" \
      sh -c "cd $NVIM_DIR && nvim --headless -u test/native_init.lua -c 'luafile test/native_run.lua'") \
      >"$WORK/nvim-$name-native.log" 2>&1 || status=$?
    grep -E '^(ok|not ok) - ' "$WORK/nvim-$name-native.log" | sed 's/^/  /' || true
    [ "$status" = 0 ] || sed -n '1,40p' "$WORK/nvim-$name-native.log" | sed 's/^/  | /'
    result "neovim $name, native start (vim.lsp.enable)" "$status"
    status=0
    (cd "$REPO/editors/nvim" && timeout 60 "${chroot_cmd[@]}" env HOME="/askls-test/home-$name" \
      XDG_CACHE_HOME="/askls-test/home-$name/.cache" ASKLS_FIXTURE="/askls-test/ws-$name-native" \
      sh -c "cd $NVIM_DIR && nvim --headless -u test/native_missing.lua") \
      >"$WORK/nvim-$name-native-missing.log" 2>&1 || status=$?
    grep -E '^(ok|not ok) - ' "$WORK/nvim-$name-native-missing.log" | sed 's/^/  /' || true
    [ "$status" = 0 ] || sed -n '1,20p' "$WORK/nvim-$name-native-missing.log" | sed 's/^/  | /'
    result "neovim $name, native start with a missing binary says so" "$status"
  fi

  # The languages.toml for this Helix is generated from its defaults: current?
  local langs=editors/helix/languages.toml
  case "$hxv" in 25.01*) langs=editors/helix/languages-25.01.toml ;; esac
  if grep -q "from Helix $hxv's default" "$langs"; then
    status=0
    python3 editors/helix/gen-languages.py --hx "$dir/usr/lib/hx/hx" --helix-version "$hxv" | cmp -s - "$langs" || status=$?
    [ "$status" = 0 ] || say "$langs differs from: python3 editors/helix/gen-languages.py --hx $dir/usr/lib/hx/hx --helix-version $hxv"
    result "$langs matches gen-languages.py for Helix $hxv" "$status"
  else
    say "NOTE: $langs was generated for another Helix than $hxv; regenerate it with editors/helix/gen-languages.py"
  fi

  if command -v tmux >/dev/null; then
    fixture "$WORK/ws-hx"
    rm -rf "$WORK/home-hx" "$WORK/hxcfg"
    status=0
    # A slow fake model for "typing while an answer is written".
    local hxfake=
    if command -v python3 >/dev/null; then
      rm -f "$WORK/port-hx"
      python3 editors/nvim/test/fake_ollama.py "$WORK/port-hx" --delay 0.2 2>"$WORK/fake-ollama-hx.log" &
      hxfake=$!
      for _ in $(seq 150); do [ -s "$WORK/port-hx" ] && break; sleep 0.1; done
    fi
    ASKLS_FAKE_OLLAMA=$([ -s "$WORK/port-hx" ] && echo "http://127.0.0.1:$(cat "$WORK/port-hx")") \
      ASKLS_HX_SESSION="askls-hx-$$" ASKLS_HX_ROUNDS="${ASKLS_HX_ROUNDS:-8}" bash editors/helix/test/run.sh "$dir" "$WORK" /askls-test \
      >"$WORK/helix-$name.log" 2>&1 || status=$?
    [ -n "$hxfake" ] && kill "$hxfake" 2>/dev/null
    sed 's/^/  /' "$WORK/helix-$name.log"
    result "helix $hxv" "$status"
    rm -rf "$WORK/ws-hx"
  else
    skip "tmux is not installed on the host: the Helix test drives hx through it"
  fi
}

# 2 and 3. In the sid chroot (the newest Neovim and Helix), and in trixie
# when it is there.
if [ "$(id -u)" != 0 ]; then
  skip "the chroot levels need root (chroot, mount)"
else
  if [ -x "$SID/usr/bin/nvim" ] && [ -x "$SID/usr/bin/hx" ]; then
    chroot_level sid "$SID"
  else
    skip "no sid chroot with neovim and hx at $SID (bash .ci/install.d/editors.sh)"
  fi
  if [ -x "$TRIXIE/usr/bin/nvim" ] && [ -x "$TRIXIE/usr/bin/hx" ]; then
    chroot_level trixie "$TRIXIE"
  else
    say "NOTE: no trixie chroot (Neovim 0.10, Helix 25.01) at $TRIXIE; ASKLS_EDITORS_TRIXIE=1 bash .ci/install.d/editors.sh makes one"
  fi
fi

say "$PASSED passed, $FAILED failed, $SKIPPED skipped"
[ "$FAILED" = 0 ]
