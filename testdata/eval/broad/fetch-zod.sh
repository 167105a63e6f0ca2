#!/usr/bin/env bash
# Fetch the pinned tree of the zod set: the npm package zod@3.25.76 as its
# tarball ships it. Run by ../fetch.sh with $NAME and $DIR set; prints only the
# corpus root (the unpacked package/ folder) on stdout, progress on stderr.
set -euo pipefail

# fetch_npm PKG VERSION SHA512 SHA256: download one npm tarball at an exact
# version with `npm pack`, check its sha512 integrity (as the registry
# publishes it) and its sha256, unpack it into $DIR and print $DIR/package.
# A finished tree is marked by $DIR/.fetched.
fetch_npm() {
  local pkg=$1 version=$2 integrity=$3 sum=$4
  mkdir -p "$DIR"
  DIR=$(cd "$DIR" && pwd)
  local stamp="$DIR/.fetched" want="$pkg@$version $integrity sha256:$sum"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -d "$DIR/package" ]; then
    echo "$DIR/package"
    return
  fi
  local tool
  for tool in npm openssl sha256sum tar; do
    command -v "$tool" >/dev/null || { echo "fetch-$NAME.sh: $tool not found (needed to fetch $pkg@$version)" >&2; exit 1; }
  done
  tmp=$(mktemp -d "$DIR/.tmp.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  echo "fetch-$NAME.sh: downloading $pkg@$version" >&2
  if ! (cd "$tmp" && npm pack --silent "$pkg@$version" >/dev/null); then
    echo "fetch-$NAME.sh: npm pack $pkg@$version failed (is the npm registry reachable?)" >&2
    exit 1
  fi
  local tgz got
  tgz=$(ls "$tmp"/*.tgz)
  got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
  if [ "$got" != "$integrity" ]; then
    echo "fetch-$NAME.sh: $tgz has integrity $got, want $integrity" >&2
    exit 1
  fi
  got=$(sha256sum "$tgz" | cut -d' ' -f1)
  if [ "$got" != "$sum" ]; then
    echo "fetch-$NAME.sh: $tgz has sha256 $got, want $sum" >&2
    exit 1
  fi
  mkdir "$tmp/x"
  tar -xzf "$tgz" -C "$tmp/x"
  local v
  v=$(node -p 'require(process.argv[1]).version' "$tmp/x/package/package.json" 2>/dev/null || true)
  if [ -n "$v" ] && [ "$v" != "$version" ]; then
    echo "fetch-$NAME.sh: unpacked package.json says version $v, want $version" >&2
    exit 1
  fi
  rm -rf "$DIR/package"
  mv "$tmp/x/package" "$DIR/package"
  echo "$want" >"$stamp"
  echo "$DIR/package"
}

: "${NAME:=zod}"
: "${DIR:=${XDG_CACHE_HOME:-$HOME/.cache}/askls-eval/$NAME}"
fetch_npm zod 3.25.76 \
  'sha512-gzUt/qt81nXsFGKIFcC3YnfEAx5NkunCfnDlvuBSSFS02bcXu4Lmea0AFIUwbLWxWPx3d9p8S5QoaujKcNQxcQ==' \
  9e1f1a05f0dd0c1dab64ee91ceb9bf55cd44d35368c70edda80a2fdc70a88377
