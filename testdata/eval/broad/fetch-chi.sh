#!/usr/bin/env bash
# Fetch the pinned tree of the chi set: the Go module github.com/go-chi/chi/v5
# at v5.1.0 from the Go module proxy. Run by ../fetch.sh with $NAME and $DIR
# set; prints only the corpus root on stdout, progress on stderr.
#
# `go mod download` checks the module's hash against the checksum database
# itself; this script also checks it against the pinned h1: hash below, then
# copies the module (read-only in the module cache) to $DIR/chi so the root
# does not depend on GOMODCACHE. A finished tree is marked by $DIR/.fetched.
set -euo pipefail
: "${NAME:=chi}"
: "${DIR:=${XDG_CACHE_HOME:-$HOME/.cache}/askls-eval/$NAME}"

mod=github.com/go-chi/chi/v5 version=v5.1.0
sum='h1:acVI1TYaD+hhedDJ3r54HyA6sExp3HfXq7QWEEY/xMw='

mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
stamp="$DIR/.fetched" want="$mod@$version $sum"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -d "$DIR/chi" ]; then
  echo "$DIR/chi"
  exit 0
fi
command -v go >/dev/null || { echo "fetch-$NAME.sh: go not found (needed to fetch $mod@$version)" >&2; exit 1; }
echo "fetch-$NAME.sh: downloading $mod@$version" >&2
# Run outside any module so the command reads no go.mod of the caller.
if ! json=$(cd "$DIR" && GOFLAGS=-mod=mod GO111MODULE=on go mod download -json "$mod@$version"); then
  echo "fetch-$NAME.sh: go mod download $mod@$version failed (is the Go module proxy reachable?)" >&2
  echo "$json" >&2
  exit 1
fi
field() { printf '%s\n' "$json" | sed -n "s/^[[:space:]]*\"$1\": \"\(.*\)\",\{0,1\}\$/\1/p"; }
got=$(field Sum) src=$(field Dir)
if [ "$got" != "$sum" ]; then
  echo "fetch-$NAME.sh: $mod@$version has hash '$got', want $sum" >&2
  exit 1
fi
if [ ! -d "$src" ]; then
  echo "fetch-$NAME.sh: go mod download gave no directory for $mod@$version" >&2
  exit 1
fi
rm -rf "$DIR/chi" "$DIR/.tmp"
cp -r "$src" "$DIR/.tmp"
chmod -R u+w "$DIR/.tmp"
mv "$DIR/.tmp" "$DIR/chi"
echo "$want" >"$stamp"
echo "$DIR/chi"
