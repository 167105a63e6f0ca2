package archdoc

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/askls/askls/"

// TestPartsTableMatchesTheImports fails on a package the table leaves
// out, a row naming no package, and a row whose imports differ from the
// packages'.
func TestPartsTableMatchesTheImports(t *testing.T) {
	root := moduleRoot(t)
	imports, err := packageImports(root)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := partsTable(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 10 {
		t.Fatalf("found %d rows in the parts table of docs/architecture.md: has its header changed?", len(rows))
	}
	listed := map[string]bool{}
	for _, r := range rows {
		got := map[string]bool{}
		for _, pkg := range r.packages {
			listed[pkg] = true
			imps, ok := imports[pkg]
			if !ok {
				t.Errorf("docs/architecture.md names %s, which is not a package of the module", pkg)
			}
			for _, imp := range imps {
				got[imp] = true
			}
		}
		if want, have := strings.Join(sorted(r.imports), ", "), strings.Join(sortedKeys(got), ", "); want != have {
			t.Errorf("docs/architecture.md: %s imports %q; the row says %q", strings.Join(r.packages, ", "), have, want)
		}
	}
	for pkg := range imports {
		if !listed[pkg] {
			t.Errorf("docs/architecture.md's table of the parts has no row for %s", pkg)
		}
	}
}

type row struct {
	packages []string // the first column's packages
	imports  []string // the third column's
}

// partsTable reads the table under "## The parts": | package | owns |
// imports (askls) | …. Names in backticks; a name with "*" (editors/*) is
// not a Go package; "—" is no import.
func partsTable(path string) ([]row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []row
	in := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## The parts"
			continue
		}
		if !in || !strings.HasPrefix(line, "| `") {
			continue
		}
		cols := strings.Split(line, " | ")
		if len(cols) < 4 {
			continue
		}
		r := row{packages: codeNames(cols[0]), imports: codeNames(cols[2])}
		if len(r.packages) > 0 {
			rows = append(rows, r)
		}
	}
	return rows, sc.Err()
}

// codeNames are the names in backticks of a table cell, those with "*"
// left out.
func codeNames(cell string) []string {
	var out []string
	parts := strings.Split(cell, "`")
	for i := 1; i < len(parts); i += 2 {
		if !strings.Contains(parts[i], "*") {
			out = append(out, parts[i])
		}
	}
	return out
}

// packageImports maps each package folder of the module ("lsp",
// "cmd/askls") to the module's packages its non-test files import, on
// Linux, macOS or Windows, as `go list` gives them.
func packageImports(root string) (map[string][]string, error) {
	sets := map[string]map[string]bool{}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		cmd := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOOS="+goos)
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("GOOS=%s go list: %w", goos, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			fields := strings.Fields(line)
			if len(fields) == 0 {
				continue
			}
			pkg, ok := strings.CutPrefix(fields[0], module)
			if !ok {
				continue // the module's root package, if it ever has one
			}
			if sets[pkg] == nil {
				sets[pkg] = map[string]bool{}
			}
			for _, imp := range fields[1:] {
				if rest, ok := strings.CutPrefix(imp, module); ok {
					sets[pkg][rest] = true
				}
			}
		}
	}
	out := map[string][]string{}
	for pkg, set := range sets {
		out[pkg] = sortedKeys(set)
	}
	return out, nil
}

func sorted(s []string) []string {
	s = append([]string(nil), s...)
	sort.Strings(s)
	return s
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// moduleRoot is the module's folder, as the go command finds it.
func moduleRoot(t *testing.T) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	return strings.TrimSpace(string(out))
}
