package ollamatest

import (
	"embed"
	"fmt"
	"testing"

	"github.com/askls/askls/internal/fixture"
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
	if err := fixture.Extract(dir, b); err != nil {
		return fmt.Errorf("ollamatest: fixture %s: %w", name, err)
	}
	return nil
}
