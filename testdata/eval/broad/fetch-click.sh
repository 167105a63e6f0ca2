#!/usr/bin/env bash
# Fetch the pinned tree of the click set: click 8.1.3 as Debian bookworm
# installs it (package python3-click). Run by ../fetch.sh with $NAME and $DIR
# set; prints only the corpus root (dist-packages, holding click/) on stdout.
set -euo pipefail
. "$(dirname "$0")/../fetchlib.sh"
: "${NAME:=click}"
: "${DIR:=${XDG_CACHE_HOME:-$HOME/.cache}/askls-eval/$NAME}"
fetch_deb python3-click 8.1.3-2 \
  c3af7e231d711f7fdb9a2fac4954061fe423ea517279bc30bf95a0920738279b \
  usr/lib/python3/dist-packages
