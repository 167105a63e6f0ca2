package corpus

import "testing"

func TestProjectName(t *testing.T) {
	for root, want := range map[string]string{
		"/home/me/src/fzf": "fzf",
		"/root/go/pkg/mod/github.com/spf13/cobra@v1.8.1": "cobra",
		"/usr/share/cargo/registry/serde_json-1.0.87":    "serde_json",
		"/gems/rack-2.2.22":                              "rack",
		"/usr/local/go/src":                              "",
		"/tmp/express/node_modules":                      "",
		"/usr/lib/python3/dist-packages":                 "",
		"/work/Redis/":                                   "redis",
	} {
		if got := ProjectName(root); got != want {
			t.Errorf("ProjectName(%q) = %q, want %q", root, got, want)
		}
	}
}
