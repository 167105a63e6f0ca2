package secret

import (
	"strings"
	"testing"

	"github.com/askls/askls/internal/secretcorpus"
)

// TestRedactKeepsOffsets: masking a corpus file keeps its length and
// lines (citations computed on it hold for the file on disk).
func TestRedactKeepsOffsets(t *testing.T) {
	for p, c := range secretcorpus.Files() {
		r := string(Redact([]byte(c)))
		if len(r) != len(c) || strings.Count(r, "\n") != strings.Count(c, "\n") {
			t.Errorf("%s: masking moved offsets or lines:\n%s", p, r)
		}
	}
}
