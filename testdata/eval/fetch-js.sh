#!/usr/bin/env bash
# Fetch the corpus of the "express" question set: express 5.3.0 installed from
# the npm registry into an empty folder, with every dependency pinned, as a
# user's project would have it. The corpus root is that folder's node_modules.
#
# Usage: fetch-js.sh [DIR]   (default: ${XDG_CACHE_HOME:-$HOME/.cache}/askls-eval/express)
# Prints the corpus root (DIR/node_modules). Idempotent: a DIR whose installed
# versions already match the pins is left alone.
set -euo pipefail

DIR="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/askls-eval/express}"
for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "fetch-js.sh: $tool is not installed" >&2; exit 1; }
done
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

# Every package of the tree, name@version, exactly as npm resolved
# express@5.3.0 (a flat tree: no package is installed twice).
PINS="
accepts@2.0.0 async-function@1.0.0 async-generator-function@1.0.0
body-parser@2.4.0 bytes@3.1.2 call-bind-apply-helpers@1.0.2 call-bound@1.0.4
content-disposition@2.0.1 content-type@2.1.0 cookie@0.7.2
cookie-signature@1.2.2 debug@4.4.3 depd@2.0.0 dunder-proto@1.0.1
ee-first@1.1.1 encodeurl@2.0.3 es-define-property@1.0.1 es-errors@1.3.0
es-object-atoms@1.1.2 escape-html@1.0.3 etag@1.8.1 express@5.3.0
finalhandler@2.1.1 forwarded@0.2.0 fresh@2.0.0 function-bind@1.1.2
generator-function@2.0.1 get-intrinsic@1.3.1 get-proto@1.0.1 gopd@1.2.0
has-symbols@1.1.0 hasown@2.0.4 http-errors@2.0.1 iconv-lite@0.7.3
inherits@2.0.4 ipaddr.js@1.9.1 is-promise@4.0.0 math-intrinsics@1.1.0
media-typer@1.1.1 merge-descriptors@2.0.0 mime-db@1.54.0 mime-types@3.0.2
ms@2.1.3 negotiator@1.1.0 object-inspect@1.14.0 on-finished@2.4.2
once@1.4.0 parseurl@1.3.3 path-to-regexp@8.4.2 proxy-addr@2.0.8
qs@6.17.1 range-parser@1.3.0 raw-body@3.0.2 router@2.3.0
safer-buffer@2.1.2 send@1.2.1 serve-static@2.2.1 setprototypeof@1.2.0
side-channel@1.1.1 side-channel-list@1.0.1 side-channel-map@1.0.1
side-channel-weakmap@1.0.2 statuses@2.0.2 toidentifier@1.0.1
type-is@2.1.0 unpipe@1.0.0 vary@1.1.2 wrappy@1.0.2
"

# mismatches prints each pin that DIR/node_modules does not hold (one node
# process reads every package.json).
mismatches() {
  node -e '
    const fs = require("fs"), path = require("path");
    const [dir, ...pins] = process.argv.slice(1);
    for (const pin of pins) {
      const at = pin.lastIndexOf("@");
      const name = pin.slice(0, at), want = pin.slice(at + 1);
      let got = "";
      try {
        got = JSON.parse(fs.readFileSync(path.join(dir, "node_modules", name, "package.json"), "utf8")).version;
      } catch (e) {}
      if (got !== want) console.log(pin + " (found: " + (got || "nothing") + ")");
    }' "$DIR" $PINS
}

if [ -z "$(mismatches)" ]; then
  echo "$DIR/node_modules"
  exit 0
fi

# package.json asks for express and overrides every transitive dependency to
# its pin, so a newer patch release on the registry cannot change the tree.
{
  echo '{'
  echo '  "name": "askls-eval-express",'
  echo '  "private": true,'
  echo '  "dependencies": { "express": "5.3.0" },'
  echo '  "overrides": {'
  first=1
  for pin in $PINS; do
    name="${pin%@*}"; want="${pin##*@}"
    [ "$name" = express ] && continue
    [ $first = 1 ] || echo ','
    printf '    "%s": "%s"' "$name" "$want"
    first=0
  done
  echo
  echo '  }'
  echo '}'
} > "$DIR/package.json"
rm -rf "$DIR/node_modules" "$DIR/package-lock.json"
(cd "$DIR" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2)

bad="$(mismatches)"
if [ -n "$bad" ]; then
  echo "fetch-js.sh: installed tree does not match the pins:" >&2
  echo "$bad" >&2
  exit 1
fi
extra="$(find "$DIR/node_modules" -mindepth 2 -maxdepth 3 -type d -name node_modules | head -n 1)"
if [ -n "$extra" ]; then
  echo "fetch-js.sh: expected a flat tree, found nested $extra" >&2
  exit 1
fi
echo "$DIR/node_modules"
