package secretcorpus

import (
	_ "embed"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/askls/askls/internal/fixture"
)

//go:embed testdata/secrets.txtar
var archive []byte

// Leak is a planted secret value and the file that holds it.
type Leak struct{ Path, Value string }

// Links are the symlinks Write adds: ordinary names for a secret file,
// one through another.
var Links = map[string]string{"config.txt": ".env", "chain.txt": "config.txt"}

// Leaks returns every planted value, as the archive's "leak PATH VALUE"
// lines list them.
func Leaks() []Leak {
	var out []Leak
	for _, line := range strings.Split(string(txtar.Parse(archive).Comment), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[0] == "leak" {
			out = append(out, Leak{Path: f[1], Value: f[2]})
		}
	}
	return out
}

// Files returns the planted files by slash path.
func Files() map[string]string {
	out := map[string]string{}
	for _, f := range txtar.Parse(archive).Files {
		out[f.Name] = string(f.Data)
	}
	return out
}

// Write plants the corpus and its Links in a new temporary folder and
// returns it.
func Write(t testing.TB) string {
	t.Helper()
	dir := fixture.Tree(t, Files())
	for link, target := range Links {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Check reports, as test errors, each planted value text holds, and
// returns how many it found. what names the route.
func Check(t testing.TB, what, text string) int {
	t.Helper()
	n := 0
	for _, l := range Leaks() {
		if strings.Contains(text, l.Value) {
			n++
			t.Errorf("%s lets out %s's secret %q", what, l.Path, l.Value)
		}
	}
	return n
}

// Formats counts the files of the corpus that hold a planted value.
func Formats() int {
	seen := map[string]bool{}
	for _, l := range Leaks() {
		seen[l.Path] = true
	}
	return len(seen)
}
