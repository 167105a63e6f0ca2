#!/usr/bin/env bash
# Fetch the zstd set's tree: the Go module github.com/DataDog/zstd v1.5.6,
# which vendors zstd 1.5.6's C sources (compress, decompress, dictBuilder,
# legacy decoders) flat beside its Go wrapper. Run by ../fetch.sh with $NAME
# and $DIR set; prints only the corpus root ($DIR/src, a writable copy of the
# module) on stdout.
#
# `go mod download` checks the module against go.sum's checksum database;
# this script also checks the module's h1: hash against the pinned one.
set -euo pipefail

MOD=github.com/DataDog/zstd
VER=v1.5.6
SUM=h1:LbEglqepa/ipmmQJUDnSsfvA8e8IStVcGaFWDuxvGOY=

DIR=${DIR:?DIR must be set (run through testdata/eval/fetch.sh zstd)}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
stamp="$DIR/.fetched" want="$MOD@$VER $SUM"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -d "$DIR/src" ]; then
  echo "$DIR/src"
  exit 0
fi

command -v go >/dev/null || { echo "fetch-zstd.sh: go not found (the Go toolchain is needed to download $MOD@$VER)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "fetch-zstd.sh: python3 not found (needed to read go mod download's JSON)" >&2; exit 1; }

echo "fetch-zstd.sh: downloading $MOD@$VER" >&2
# Run in an empty temporary folder, outside any module, so that no go.mod or
# go.sum (the caller's, or one above $DIR) is read or changed.
gotmp=$(mktemp -d)
json=$(cd "$gotmp" && GO111MODULE=on GOWORK=off go mod download -json "$MOD@$VER") || {
  rmdir "$gotmp"
  echo "fetch-zstd.sh: go mod download $MOD@$VER failed (is the Go module proxy reachable?)" >&2
  exit 1
}
rmdir "$gotmp"
field() { printf '%s' "$json" | python3 -c "import json,sys; print(json.load(sys.stdin).get('$1',''))"; }
err=$(field Error)
if [ -n "$err" ]; then
  echo "fetch-zstd.sh: go mod download $MOD@$VER: $err" >&2
  exit 1
fi
got=$(field Sum)
if [ "$got" != "$SUM" ]; then
  echo "fetch-zstd.sh: $MOD@$VER has hash $got, want $SUM" >&2
  exit 1
fi
moddir=$(field Dir)
[ -d "$moddir" ] || { echo "fetch-zstd.sh: module folder $moddir not found" >&2; exit 1; }

rm -rf "$DIR/src" "$DIR/.src.tmp"
cp -R "$moddir" "$DIR/.src.tmp"
chmod -R u+w "$DIR/.src.tmp"   # the module cache is read-only
mv "$DIR/.src.tmp" "$DIR/src"
echo "$want" >"$stamp"
echo "$DIR/src"
