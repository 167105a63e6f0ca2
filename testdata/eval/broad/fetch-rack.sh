#!/usr/bin/env bash
# Fetch the pinned tree of the broad set "rack" and print its corpus root:
# Rack 2.2.22 as Debian bookworm installs it (package ruby-rack); the root is the gem's folder, holding lib/rack, bin/rackup and example/.
# Run by ../fetch.sh with $NAME and $DIR set; fetch_deb (../fetchlib.sh)
# downloads the exact version with apt-get, checks the .deb's sha256, unpacks
# it into $DIR/pkg and leaves a stamp so that a second run reuses the tree.
set -euo pipefail
DIR=${DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/askls-eval/${NAME:-rack}}
# shellcheck source=../fetchlib.sh
. "$(dirname "$0")/../fetchlib.sh"
fetch_deb ruby-rack 2.2.22-0+deb12u1 \
  18bab2c3caffa2b1a35cd73d49652d749909e87fd2d5b57dd4a594a02a6ad157 \
  usr/share/rubygems-integration/all/gems/rack-2.2.22
