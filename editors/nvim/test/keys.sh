#!/usr/bin/env bash
# Drives Neovim's own UI in tmux against the real askls and a (slow, fake)
# model: the keys a person presses to ask and to open an answer, N tries
# (ASKLS_NVIM_TRIES, default 30), each counted:
#   ask    \aa on a word, :Askls {question} or :AsklsNew {question};
#   while  typing in insert mode during and after the answer, waiting in
#          insert mode and typing after it came, or moving in normal mode
#          and deleting a line after it came: every key lands in the file
#          (checked in the file written with :w), none in the answer, and
#          the answer arrives without moving the cursor out of the file or
#          out of insert mode;
#   jump   a line added above the cited code (unsaved), then into the answer
#          window (<C-w>b, or :AsklsAnswer and <C-w>b), /[1] and <CR>: the
#          cursor lands on the cited line where it is now.
# Then a new Neovim reopens the last thread (:AsklsThreads, 1) and its [1]
# lands on the cited line after another line was added above. Last, the
# setup failures as the screen shows them: no model reachable, a refused
# root (the home folder) and a missing binary, each in the message area.
# Prints one line per try, "N/N tries" and "N/N jumps landed"; exits 1 at
# the first failure, or when fewer than 10 jumps were made.
#
# Environment (paths as the editor sees them unless said):
#   KEYS_WS          the workspace (greet/greet.go, main.go), on this machine
#   KEYS_WS_VIEW     the same, as the editor sees it
#   KEYS_HOME        HOME for Neovim and askls, on this machine; KEYS_HOME_VIEW: seen
#   KEYS_NVIM_DIR    editors/nvim as the editor sees it
#   KEYS_OUT         a folder for the log, on this machine; KEYS_OUT_VIEW: seen
#   ASKLS_BIN        askls; ASKLS_OLLAMA: the fake model (required)
#   ASKLS_NVIM_TRIES tries (default 30); ASKLS_NVIM_SESSION: the tmux session
# Arguments: a command prefix that runs the editor (empty on this machine;
# "chroot DIR env -i PATH=... TERM=..." in a chroot).
set -euo pipefail
: "${KEYS_WS:?}" "${KEYS_WS_VIEW:?}" "${KEYS_HOME:?}" "${KEYS_HOME_VIEW:?}" "${KEYS_NVIM_DIR:?}" "${KEYS_OUT:?}" "${KEYS_OUT_VIEW:?}"
: "${ASKLS_BIN:?}" "${ASKLS_OLLAMA:?}"
TRIES=${ASKLS_NVIM_TRIES:-30}
S=${ASKLS_NVIM_SESSION:-askls-nvim-keys-$$}
LOG=$KEYS_OUT/keys.log
FILE=$KEYS_WS/greet/greet.go
: >"$LOG"

screen() { tmux capture-pane -p -t "$S" 2>/dev/null || true; }
fail() {
  echo "not ok - neovim keys: $*"
  echo "--- screen"
  screen | sed 's/^/  | /'
  echo "--- last of the key log"
  tail -n 8 "$LOG" | cut -c1-400 | sed 's/^/  | /'
  exit 1
}
ok() { echo "ok - neovim keys: $*"; }
keys() { tmux send-keys -t "$S" "$@"; }
typed() { tmux send-keys -t "$S" -l "$1"; }
# Escape alone: Escape and the next key at once read as Alt+key.
esc() {
  keys Escape
  sleep 0.15
}
count() { grep -cE "\"event\": ?\"$1\"" "$LOG" || true; }
# wait_count EVENT N SECONDS WHAT: until the log holds more than N EVENT lines.
wait_count() {
  local i
  for ((i = 0; i < $3 * 10; i++)); do
    [ "$(count "$1")" -gt "$2" ] && return 0
    sleep 0.1
  done
  fail "timed out after $3 s waiting for $4"
}
last() { grep -E "\"event\": ?\"$1\"" "$LOG" | tail -n 1; }
# wait_file TEST: until the shell test TEST on greet.go holds (after :w),
# 30 s at most.
wait_file() {
  local i
  for ((i = 0; i < 300; i++)); do
    eval "$1" && return 0
    sleep 0.1
  done
  return 1
}

# start_nvim [PREFIX...]: Neovim in a new tmux session; NV_BIN, NV_OLLAMA,
# NV_DIR and NV_FILE change the binary, the model, the folder it starts in
# and the file it opens (defaults: askls, the fake model, the workspace,
# greet/greet.go).
start_nvim() {
  local prefix=""
  [ $# -gt 0 ] && prefix=$(printf '%q ' "$@")
  local envs
  envs=$(printf '%q ' env HOME="$KEYS_HOME_VIEW" XDG_CACHE_HOME="$KEYS_HOME_VIEW/.cache" \
    XDG_CONFIG_HOME="$KEYS_HOME_VIEW/.config" XDG_DATA_HOME="$KEYS_HOME_VIEW/.local/share" \
    XDG_STATE_HOME="$KEYS_HOME_VIEW/.local/state" ASKLS_BIN="${NV_BIN:-$ASKLS_BIN}" \
    ASKLS_OLLAMA="${NV_OLLAMA-$ASKLS_OLLAMA}" ASKLS_KEYS_LOG="$KEYS_OUT_VIEW/keys.log" TERM=xterm-256color LANG=C.UTF-8)
  tmux new-session -d -s "$S" -x 180 -y 45 \
    "$prefix $envs sh -c 'cd ${NV_DIR:-$KEYS_WS_VIEW} && nvim -u $KEYS_NVIM_DIR/test/keys_init.lua ${NV_FILE:-greet/greet.go}; echo NVIM-EXITED; sleep 300'"
}
# quit_nvim: :qa! and the tmux session goes.
quit_nvim() {
  esc
  typed ":qa!"
  keys Enter
  for ((i = 0; i < 100; i++)); do
    screen | grep -q NVIM-EXITED && break
    sleep 0.1
  done
  tmux kill-session -t "$S"
}
trap 'tmux kill-session -t "$S" 2>/dev/null || true' EXIT

start_nvim "$@"
wait_count ready 0 60 'askls to attach with its index ready'
ok "askls attached and indexed ($(screen | grep -oE 'greet/greet.go L[0-9]+' | head -n1))"

# type_slowly TEXT: one key at a time, as a person types.
type_slowly() {
  local k
  for ((k = 0; k < ${#1}; k++)); do
    typed "${1:k:1}"
    sleep 0.03
  done
}
lines() { wc -l <"$FILE"; }
lastline() { tail -n 1 "$FILE"; }

jumps=0
landed=0
# jump_to_1 HOW WANT_TEXT WANT_LINE: into the answer window, to [1], <CR>;
# WANT_LINE empty: only the text is checked.
jump_to_1() {
  local how=$1 want=$2 wantline=$3 where_before got gotline
  where_before=$(count where)
  if [ "$how" = answer ]; then
    typed ":AsklsAnswer"
    keys Enter
    sleep 0.2
  fi
  keys C-w b
  sleep 0.15
  keys g g
  typed '/\[1\]'
  keys Enter
  sleep 0.15
  keys Enter
  sleep 0.3
  typed ":lua KeysWhere()"
  keys Enter
  wait_count where "$where_before" 10 'the position after the jump'
  got=$(last where | jq -r .text)
  gotline=$(last where | jq -r .line)
  jumps=$((jumps + 1))
  [ "$(last where | jq -r .file)" = "$KEYS_WS_VIEW/greet/greet.go" ] || fail "jump $jumps: landed in $(last where | jq -r .file)"
  [ "$got" = "$want" ] || fail "jump $jumps: landed on line $gotline '$got', cited '$want'"
  [ -z "$wantline" ] || [ "$gotline" = "$wantline" ] || fail "jump $jumps: landed on line $gotline, the cited code is on $wantline"
  landed=$((landed + 1))
}

t0=$(date +%s.%N)
for ((t = 1; t <= TRIES; t++)); do
  ts=$(date +%s.%N)
  esc
  # The line the last jump added above, saved: the file is the buffer.
  typed ":w"
  keys Enter
  before=$(count answer)
  # How the question is asked: the word mapping, :Askls, :AsklsNew.
  case $(((t - 1) / 3 % 3)) in
    0)
      how='\aa on Greeting'
      keys g g
      typed '/func Greeting'
      keys Enter
      sleep 0.1
      keys w
      typed '\aa'
      ;;
    1)
      how=':Askls'
      typed ":Askls how is the greeting text built, try $t"
      keys Enter
      ;;
    2)
      how=':AsklsNew'
      typed ":AsklsNew where is the name defaulted, try $t"
      keys Enter
      ;;
  esac
  # What the person does while the answer is written.
  case $(((t - 1) % 3)) in
    0)
      while_="insert mode, typing during and after the answer"
      want_mode=i
      keys G o
      text="typed during try $t"
      type_slowly "$text"
      wait_count answer "$before" 60 "the answer of try $t"
      typed " END"
      esc
      typed ":w"
      keys Enter
      wait_file '[ "$(lastline)" = "$text END" ]' || fail "try $t ($how, $while_): the last line is '$(lastline)', want '$text END'"
      ;;
    1)
      while_="insert mode, waiting, then typing"
      want_mode=i
      keys G o
      wait_count answer "$before" 60 "the answer of try $t"
      typed "hello world $t"
      esc
      typed ":w"
      keys Enter
      wait_file '[ "$(lastline)" = "hello world $t" ]' || fail "try $t ($how, $while_): the last line is '$(lastline)', want 'hello world $t'"
      ;;
    2)
      while_="normal mode, moving, then dd"
      want_mode=n
      n_before=$(lines)
      for _ in 1 2 3; do
        keys j
        sleep 0.2
        keys k
        sleep 0.2
      done
      wait_count answer "$before" 60 "the answer of try $t"
      keys G d d
      typed ":w"
      keys Enter
      wait_file '[ "$(lines)" = $((n_before - 1)) ]' || fail "try $t ($how, $while_): greet.go went from $n_before to $(lines) lines, want $((n_before - 1))"
      ;;
  esac
  a=$(last answer)
  [ "$(echo "$a" | jq -r .mode)" = "$want_mode" ] || fail "try $t ($how, $while_): the answer left the editor in mode '$(echo "$a" | jq -r .mode)', want $want_mode"
  [ "$(echo "$a" | jq -r .buf)" = "$KEYS_WS_VIEW/greet/greet.go" ] || fail "try $t ($how, $while_): the answer moved the cursor to '$(echo "$a" | jq -r .buf)'"
  screen | grep -qE 'E21|E[0-9]+:' && fail "try $t ($how, $while_): an error on screen"
  # The cited code of [1] in greet.go, as it was when the answer came.
  c1=$(echo "$a" | jq -c '.citations[] | select(.n == 1)')
  [ -n "$c1" ] || fail "try $t: the answer has no [1]: $a"
  [ "$(echo "$c1" | jq -r .file)" = "$KEYS_WS_VIEW/greet/greet.go" ] || fail "try $t: [1] is not in greet.go: $c1"
  want=$(echo "$c1" | jq -r .text)
  # Its line in the file as saved now, plus the line added above it next.
  wantline=$(($(grep -nxF -- "$want" "$FILE" | head -n 1 | cut -d: -f1) + 1))
  keys g g O
  typed "// moved $t"
  esc
  if ((t % 2)); then jump_to_1 answer "$want" "$wantline"; else jump_to_1 window "$want" "$wantline"; fi
  ok "try $t: $how; $while_; the answer came without taking the keys; [1] (line $wantline after a line was added above) — $(printf '%.1f' "$(echo "$(date +%s.%N) - $ts" | bc)") s"
done
elapsed=$(echo "$(date +%s.%N) - $t0" | bc)
ok "$TRIES/$TRIES tries (ASKLS_NVIM_TRIES=$TRIES) with keys before, during and after an answer: 0 keys reached an answer; $(printf '%.1f' "$(echo "$elapsed / $TRIES" | bc -l)") s a try"

# A new session: the last thread, reopened, jumps where the code is now.
want=$(last answer | jq -r '.citations[] | select(.n == 1) | .text')
typed ":w"
keys Enter
sleep 0.3
quit_nvim
: >"$LOG"
start_nvim "$@"
wait_count ready 0 60 'askls to attach in the new session'
typed ":AsklsThreads"
keys Enter
sleep 0.5
screen | grep -qE '^1: ' || fail "the thread list (vim.ui.select) does not show"
typed 1
keys Enter
sleep 0.5
keys g g O
typed "// reopened"
esc
wantline=$(($(grep -nxF -- "$want" "$FILE" | head -n 1 | cut -d: -f1) + 1))
jump_to_1 window "$want" "$wantline"
ok "a new session: :AsklsThreads, 1, then [1] lands on line $wantline after a line was added above"
quit_nvim

# Setup failures, as a person sees them: on the screen, in the message area.
# wait_screen SECONDS REGEX WHAT
wait_screen() {
  local i
  for ((i = 0; i < $1 * 10; i++)); do
    screen | grep -qE -- "$2" && return 0
    sleep 0.1
  done
  fail "timed out after $1 s waiting for $3"
}
since() { printf '%.1f' "$(echo "$(date +%s.%N) - $1" | bc)"; }
# The model unreachable (nothing listens on port 9): the answer comes in
# retrieval mode and the message line says why and what to do.
: >"$LOG"
NV_OLLAMA='' start_nvim "$@"
wait_count ready 0 60 'askls to attach (no model)'
typed ":Askls where is the greeting text built?"
keys Enter
t1=$(date +%s.%N)
wait_count answer 0 30 'the answer in retrieval mode'
wait_screen 10 'askls: retrieval mode: no Ollama server at http://127\.0\.0\.1:9: run .ollama serve' 'the warning in the message area'
screen | tail -n 3 | grep -q 'askls: retrieval mode: no Ollama server' || fail "the warning is not in the message area (the last lines)"
ok "no model reachable: the message area says 'askls: retrieval mode: no Ollama server at http://127.0.0.1:9: run \`ollama serve\`…' ($(since "$t1") s after :Askls)"
quit_nvim
# A refused root: a file in the home folder, which has no project marker,
# so the root is the home folder, which askls does not index.
: >"$LOG"
printf 'package notes\n' >"$KEYS_HOME/notes.go"
t1=$(date +%s.%N)
NV_DIR=$KEYS_HOME_VIEW NV_FILE=notes.go start_nvim "$@"
wait_screen 30 'askls does not index' 'the refused root in the message area'
screen | grep -qE 'open a project folder instead' || fail "the refused-root message does not say what to do"
ok "a refused root (the home folder): the message area says askls does not index it and to open a project folder instead ($(since "$t1") s after starting Neovim)"
quit_nvim
rm -f "$KEYS_HOME/notes.go"
# The binary missing: an error in the message area with the go install command.
: >"$LOG"
t1=$(date +%s.%N)
NV_BIN=/nonexistent/askls start_nvim "$@"
wait_screen 10 'askls: the server cannot start: there is no executable /nonexistent/askls' 'the missing-binary error'
screen | grep -qF 'go install github.com/askls/askls/cmd/askls@latest' || fail "the missing-binary error does not give the go install command"
ok "a missing binary: the message area says so with the go install command ($(since "$t1") s after starting Neovim)"
[ "$jumps" -ge 10 ] || fail "only $jumps jumps were made: 10 are required (ASKLS_NVIM_TRIES >= 9)"
echo "ok - neovim keys: $landed/$jumps jumps landed on the cited lines after lines were added above"
echo "all passed"
