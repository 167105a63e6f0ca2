package corpus

import (
	"strings"
	"testing"
)

func TestIsBuiltCopy(t *testing.T) {
	tree := []string{
		"lib/core/request.js", "dist/app.js", "dist/node/app.cjs", // a package with its sources and bundles
		"pkg/dist/index.js", "pkg/package.json", // only its build output
		"src/v3/types.ts", "v3/types.js", "v3/types.cjs", // compiled beside a src/ tree
		"mod/a.ts", "mod/a.js", // compiled in place
		"web/src/main.js", "web/build/main.js",
		"widget.js", "widget.js.map", "core/engine.js", // a bundle beside its sources
		"web/assets/web.js", "web/assets/web.js.map", // a bundle one folder below its package
		"only/dist/index.js", "only/dist/index.js.map", // only its build output, with its map
		"kit/lib/parse.js", "kit/lib/parse.js.map", "app/src/view.mjs", "app/src/view.mjs.map", // sources shipped with maps
	}
	hasFile := func(p string) bool {
		for _, f := range tree {
			if f == p {
				return true
			}
		}
		return false
	}
	hasDir := func(d string) bool {
		for _, f := range tree {
			if strings.HasPrefix(f, d+"/") {
				return true
			}
		}
		return false
	}
	want := map[string]bool{
		"dist/app.js": true, "dist/node/app.cjs": true, "v3/types.js": true, "v3/types.cjs": true,
		"mod/a.js": true, "web/build/main.js": true, "widget.js": true,
		"web/assets/web.js": true, "only/dist/index.js": false,
		"lib/core/request.js": false, "pkg/dist/index.js": false, "src/v3/types.ts": false, "web/src/main.js": false,
		"core/engine.js": false, "kit/lib/parse.js": false, "app/src/view.mjs": false, "widget.js.map": false,
	}
	for p, w := range want {
		if got := IsBuiltCopy(p, hasFile, hasDir); got != w {
			t.Errorf("IsBuiltCopy(%q) = %v, want %v", p, got, w)
		}
	}
}
