#!/usr/bin/env bash
# Fetch the pinned source tree of a question set and print its corpus root.
# Usage: fetch.sh NAME [DIR]
#   NAME  a set in this folder (django, express, kernel) or in broad/
#   DIR   where to put it (default ${XDG_CACHE_HOME:-$HOME/.cache}/askls-eval/NAME)
# Idempotent: a tree already fetched is reused. Only the corpus root goes to
# stdout, so `root=$(fetch.sh django)` works; progress goes to stderr.
set -euo pipefail

usage() {
  echo "usage: fetch.sh NAME [DIR]   (NAME: django, express, kernel)" >&2
  exit 2
}

[ $# -ge 1 ] && [ $# -le 2 ] || usage
NAME=$1
DIR=${2:-${XDG_CACHE_HOME:-$HOME/.cache}/askls-eval/$NAME}

# shellcheck source=fetchlib.sh
. "$(dirname "$0")/fetchlib.sh"

case "$NAME" in
django)
  # Django 3.2.25 as Debian bookworm installs it: the corpus root is
  # dist-packages, holding django/ and Django-3.2.25.egg-info/.
  fetch_deb python3-django 3:3.2.25-0+deb12u7 \
    9ad8ed29d9026207970777e194f658c39b3a7a96a932967f043503fc25bdc319 \
    usr/lib/python3/dist-packages
  ;;
express)
  exec "$(dirname "$0")/fetch-js.sh" "$DIR"
  ;;
kernel)
  # Linux 6.1 as Debian bookworm ships its source (~140 MB download, 1.5 GB
  # and ~78,600 files unpacked). Not fetched by CI: only the kernel benchmark
  # and the kernel set use it. The security archive keeps only recent
  # versions; when this one is gone, pin the current one and its sha256.
  kversion=6.1.192-2
  fetch_deb linux-source-6.1 "$kversion" \
    ae95fe63d4c553f8d0e6c86cb1ab566f3894a43743eb19ab585cd97d82f26514 \
    usr/src >/dev/null
  DIR=$(cd "$DIR" && pwd)
  src="$DIR/linux-source-6.1"
  kstamp="$DIR/.untarred" kwant="linux-source-6.1=$kversion"
  if [ -f "$kstamp" ] && [ "$(cat "$kstamp")" = "$kwant" ] && [ -d "$src" ]; then
    echo "$src"
    exit 0
  fi
  echo "fetch.sh: unpacking linux-source-6.1.tar.xz" >&2
  rm -rf "$src" "$kstamp"
  tar -xJf "$DIR/pkg/usr/src/linux-source-6.1.tar.xz" -C "$DIR"
  # Debian's packaging appends "/*" and "!/debian/" to the top-level
  # .gitignore; by gitignore rules they exclude every top-level entry but
  # debian/, so an indexer that follows .gitignore sees nothing. Remove
  # exactly those two lines, as a developer cloning the kernel would see it.
  grep -n -x -e '/\*' -e '!/debian/' "$src/.gitignore" | sed 's/^/fetch.sh: removing .gitignore line /' >&2 || true
  sed -i -e '\#^/\*$#d' -e '\#^!/debian/$#d' "$src/.gitignore"
  echo "$kwant" >"$kstamp"
  echo "$src"
  ;;
*)
  # A set of the broad benchmark fetches its tree with broad/fetch-NAME.sh,
  # which sources fetchlib.sh the same way and prints the corpus root.
  script="$(dirname "$0")/broad/fetch-$NAME.sh"
  [ -f "$script" ] || usage
  NAME=$NAME DIR=$DIR exec bash "$script"
  ;;
esac
