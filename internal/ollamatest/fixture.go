package ollamatest

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

//go:embed testdata/*.txtar
var fixtures embed.FS

// Fixture writes testdata/NAME.txtar into a fresh temporary directory and
// returns the directory.
func Fixture(t testing.TB, name string) string {
	t.Helper()
	dir := t.TempDir()
	if err := WriteFixture(dir, name); err != nil {
		t.Fatal(err)
	}
	return dir
}

// WriteFixture writes testdata/NAME.txtar's files under dir.
func WriteFixture(dir, name string) error {
	b, err := fixtures.ReadFile("testdata/" + name + ".txtar")
	if err != nil {
		return fmt.Errorf("ollamatest: fixture %s: %w", name, err)
	}
	for _, f := range txtar.Parse(b).Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("ollamatest: %w", err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return fmt.Errorf("ollamatest: %w", err)
		}
	}
	return nil
}
