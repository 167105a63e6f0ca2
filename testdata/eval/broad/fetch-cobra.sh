#!/usr/bin/env bash
# Fetch the pinned tree of the broad set "cobra" and print its corpus root:
# the Go module github.com/spf13/cobra at v1.8.1, from the Go module proxy.
# Run by ../fetch.sh with $NAME and $DIR set. `go mod download` checks the
# module against go.sum's checksum database; this script also checks its
# hash against the pinned h1: sum below. The module goes into the ordinary
# module cache (GOMODCACHE); the root printed is its Dir there. A stamp in
# $DIR records a finished fetch.
set -euo pipefail

mod=github.com/spf13/cobra
ver=v1.8.1
sum='h1:e5/vxKd/rZsfSJMUX1agtjeTDf+qv1/JdBF8gg5k9ZM='

DIR=${DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/askls-eval/${NAME:-cobra}}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
stamp="$DIR/.fetched"
want="$mod@$ver $sum"

if [ -f "$stamp" ] && [ "$(head -n1 "$stamp")" = "$want" ]; then
  root=$(sed -n 2p "$stamp")
  if [ -d "$root" ]; then
    echo "$root"
    exit 0
  fi
fi

command -v go >/dev/null || { echo "fetch-cobra.sh: go not found (the Go toolchain is needed)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "fetch-cobra.sh: python3 not found" >&2; exit 1; }

echo "fetch-cobra.sh: go mod download $mod@$ver" >&2
# Run outside any module so that no go.mod around the caller is consulted.
json=$(cd "$DIR" && GOFLAGS=-mod=mod GO111MODULE=on go mod download -json "$mod@$ver") || {
  echo "fetch-cobra.sh: go mod download $mod@$ver failed (is the Go module proxy reachable?)" >&2
  echo "$json" >&2
  exit 1
}
read -r gotver gotsum root <<<"$(printf '%s' "$json" | python3 -c '
import json, sys
o = json.load(sys.stdin)
if o.get("Error"):
    sys.stderr.write("fetch-cobra.sh: " + o["Error"] + "\n"); sys.exit(1)
print(o.get("Version", ""), o.get("Sum", ""), o.get("Dir", ""))
')"
if [ "$gotver" != "$ver" ]; then
  echo "fetch-cobra.sh: got version $gotver, want $ver" >&2
  exit 1
fi
if [ "$gotsum" != "$sum" ]; then
  echo "fetch-cobra.sh: $mod@$ver has hash $gotsum, want $sum" >&2
  exit 1
fi
if [ ! -d "$root" ]; then
  echo "fetch-cobra.sh: module directory $root is missing" >&2
  exit 1
fi
printf '%s\n%s\n' "$want" "$root" >"$stamp"
echo "$root"
