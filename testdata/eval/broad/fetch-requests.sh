#!/usr/bin/env bash
# Fetch the pinned tree of the broad set "requests" and print its corpus root:
# requests 2.28.1 as Debian bookworm installs it (package python3-requests); the root is dist-packages, holding requests/ and requests-2.28.1.egg-info/.
# Run by ../fetch.sh with $NAME and $DIR set; fetch_deb (../fetchlib.sh)
# downloads the exact version with apt-get, checks the .deb's sha256, unpacks
# it into $DIR/pkg and leaves a stamp so that a second run reuses the tree.
set -euo pipefail
DIR=${DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/askls-eval/${NAME:-requests}}
# shellcheck source=../fetchlib.sh
. "$(dirname "$0")/../fetchlib.sh"
fetch_deb python3-requests 2.28.1+dfsg-1 \
  c75b5c05d8d4a813bd83c3d432ffe65a2ca13e771bc91d4b9787690097598603 \
  usr/lib/python3/dist-packages
