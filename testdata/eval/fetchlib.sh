# shellcheck shell=bash
# Functions shared by fetch.sh and broad/fetch-NAME.sh. Sourced with $DIR
# (where the tree goes) set; each function prints the corpus root.

# fetch_deb PKG VERSION SHA256 ROOTSUB: download one Debian package at an exact
# version with apt-get, check its hash, unpack it into $DIR/pkg and print
# $DIR/pkg/ROOTSUB. A finished tree is marked by $DIR/.fetched.
fetch_deb() {
  local pkg=$1 version=$2 sum=$3 rootsub=$4
  mkdir -p "$DIR"
  DIR=$(cd "$DIR" && pwd)
  local stamp="$DIR/.fetched" want="$pkg=$version sha256:$sum"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -d "$DIR/pkg/$rootsub" ]; then
    echo "$DIR/pkg/$rootsub"
    return
  fi
  command -v apt-get >/dev/null || { echo "fetch.sh: apt-get not found (a Debian or Ubuntu machine is needed)" >&2; exit 1; }
  tmp=$(mktemp -d "$DIR/.tmp.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  echo "fetch.sh: downloading $pkg=$version" >&2
  if ! (cd "$tmp" && apt-get download "$pkg=$version" >&2); then
    echo "fetch.sh: apt-get download $pkg=$version failed; run 'apt-get update' first, or the version is no longer in the archive (see README.md)" >&2
    exit 1
  fi
  local deb got
  deb=$(ls "$tmp"/*.deb)
  got=$(sha256sum "$deb" | cut -d' ' -f1)
  if [ "$got" != "$sum" ]; then
    echo "fetch.sh: $deb has sha256 $got, want $sum" >&2
    exit 1
  fi
  mkdir "$tmp/pkg"
  dpkg-deb -x "$deb" "$tmp/pkg"
  rm -rf "$DIR/pkg"
  mv "$tmp/pkg" "$DIR/pkg"
  echo "$want" >"$stamp"
  echo "$DIR/pkg/$rootsub"
}

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
    command -v "$tool" >/dev/null || { echo "fetch.sh $NAME: $tool not found (needed to fetch $pkg@$version)" >&2; exit 1; }
  done
  tmp=$(mktemp -d "$DIR/.tmp.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  echo "fetch.sh $NAME: downloading $pkg@$version" >&2
  if ! (cd "$tmp" && npm pack --silent "$pkg@$version" >/dev/null); then
    echo "fetch.sh $NAME: npm pack $pkg@$version failed (is the npm registry reachable?)" >&2
    exit 1
  fi
  local tgz got
  tgz=$(ls "$tmp"/*.tgz)
  got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
  if [ "$got" != "$integrity" ]; then
    echo "fetch.sh $NAME: $tgz has integrity $got, want $integrity" >&2
    exit 1
  fi
  got=$(sha256sum "$tgz" | cut -d' ' -f1)
  if [ "$got" != "$sum" ]; then
    echo "fetch.sh $NAME: $tgz has sha256 $got, want $sum" >&2
    exit 1
  fi
  mkdir "$tmp/x"
  tar -xzf "$tgz" -C "$tmp/x"
  local v
  v=$(node -p 'require(process.argv[1]).version' "$tmp/x/package/package.json" 2>/dev/null || true)
  if [ -n "$v" ] && [ "$v" != "$version" ]; then
    echo "fetch.sh $NAME: unpacked package.json says version $v, want $version" >&2
    exit 1
  fi
  rm -rf "$DIR/package"
  mv "$tmp/x/package" "$DIR/package"
  echo "$want" >"$stamp"
  echo "$DIR/package"
}
