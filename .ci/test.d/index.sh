#!/usr/bin/env bash
# The index part end to end with the real binary: index this repository,
# search it, and check the --json shape other tools read.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/askls" ./cmd/askls
"$tmp/askls" index --root . --cache "$tmp/cache"
out=$("$tmp/askls" search --root . --cache "$tmp/cache" --json "chunk.File cuts content into chunks")
echo "$out" | head -c 300; echo
grep -q '"path":"index/chunk/chunk.go"' <<<"$out" || { echo "index.sh: chunk.File not found in index/chunk/chunk.go"; exit 1; }
grep -q '"ms":' <<<"$out" || { echo "index.sh: no ms field"; exit 1; }
if msg=$("$tmp/askls" search --root /nonexistent-askls-root x 2>&1); then
  echo "index.sh: a missing root did not fail"; exit 1
fi
echo "$msg" | grep -q "does not exist" || { echo "index.sh: missing root not reported: $msg"; exit 1; }
echo "index.sh: ok"
