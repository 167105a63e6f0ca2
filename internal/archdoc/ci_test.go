package archdoc

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTestingDocListsWhatCIRuns fails when docs/testing.md leaves out a
// fuzz target .ci/test runs, the packages it runs under the race
// detector, or a script of .ci/test.d.
func TestTestingDocListsWhatCIRuns(t *testing.T) {
	root := moduleRoot(t)
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "test"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "testing.md"))
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(doc)), " ")

	targets := regexp.MustCompile(`:(Fuzz\w+)`).FindAllStringSubmatch(string(ci), -1)
	if len(targets) == 0 {
		t.Fatal("found no ./pkg/:FuzzName target in .ci/test: has its fuzz loop changed?")
	}
	for _, m := range targets {
		if !strings.Contains(flat, "`"+m[1]+"`") {
			t.Errorf("docs/testing.md does not name the fuzz target %s that .ci/test runs", m[1])
		}
	}

	race := regexp.MustCompile(`(?m)^go test -race\b.*?((?:\./[\w/]+/ ?)+)$`).FindStringSubmatch(string(ci))
	if race == nil {
		t.Fatal("found no `go test -race ... ./pkg/` line in .ci/test")
	}
	if pkgs := strings.TrimSpace(race[1]); !strings.Contains(flat, pkgs) {
		t.Errorf("docs/testing.md does not list the race detector's packages as .ci/test has them: %s", pkgs)
	}

	scripts, err := filepath.Glob(filepath.Join(root, ".ci", "test.d", "*.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range scripts {
		if name := filepath.Base(s); !strings.Contains(flat, "`"+name+"`") {
			t.Errorf("docs/testing.md does not say what .ci/test.d/%s runs", name)
		}
	}
}
