#!/usr/bin/env bash
# Fetch the googletest set's tree: GoogleTest and GoogleMock 1.12.1 (C++) as
# Debian bookworm ships their sources in the googletest package. Run by
# ../fetch.sh with $NAME and $DIR set; prints only the corpus root on stdout:
# the package's usr/src/googletest (googletest/ and googlemock/ beside it).
set -euo pipefail

DIR=${DIR:?DIR must be set (run through testdata/eval/fetch.sh googletest)}
# shellcheck source=../fetchlib.sh
. "$(dirname "$0")/../fetchlib.sh"

fetch_deb googletest 1.12.1-0.2 \
  927be72067517da503b6538026d451455c9e860f5dbfe237f792543db7d5a928 \
  usr/src/googletest
