package corpus

import "testing"

func TestInAssetDir(t *testing.T) {
	cases := map[string]bool{
		"viewer/shared/page.js":                 true,
		"contrib/admin/static/admin/js/core.js": true,
		"assets/app.css":                        true,
		"public/index.js":                       true,
		"lib/router.js":                         false,
		"viewer/console.py":                     false, // the folder only; index decides by language
		"sharedlib/x.js":                        false,
	}
	for p, want := range cases {
		if got := InAssetDir(p); got != want {
			t.Errorf("InAssetDir(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestInCommandDir(t *testing.T) {
	cases := map[string]bool{
		"cmd/tiles/main.go":         true,
		"cmd/main.go":               true,
		"internal/page_cli/read.go": true,
		"internal/cli/run.go":       true,
		"tools/cli-utils/x.go":      true,
		"client.go":                 false,
		"net/http/client/conn.go":   false, // client is no cli
		"click/core.py":             false,
		"pkg/cmd/run.go":            false, // cmd/ at the top only
		"cmd.go":                    false,
	}
	for p, want := range cases {
		if got := InCommandDir(p); got != want {
			t.Errorf("InCommandDir(%q) = %v, want %v", p, got, want)
		}
	}
}
