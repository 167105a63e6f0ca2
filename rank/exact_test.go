package rank

import "testing"

// An identifier next to a non-ASCII letter is matched without a panic
// (the byte before it is not an ASCII identifier byte).
func TestHoldsIdentBesideNonASCII(t *testing.T) {
	if !holdsIdent([]byte("é foo"), "foo") || !holdsIdent([]byte("éfoo"), "foo") || holdsIdent([]byte("foobar"), "foo") {
		t.Error("holdsIdent beside non-ASCII text")
	}
}

// A chunk that holds none of the query's identifiers loses the whole
// ExactMissFactor in a lookup, and a share of it in a question.
func TestMissFactorFollowsTheIdentifiersShare(t *testing.T) {
	t.Parallel()
	if got := missFactor(0.3, 4, 4); got != 0.3 {
		t.Errorf("lookup: %v, want 0.3", got)
	}
	q := missFactor(0.3, 1, 10)
	if !(q > 0.85 && q < 0.9) {
		t.Errorf("one identifier in ten terms: %v, want 0.3^0.1 ≈ 0.886", q)
	}
	if got := missFactor(0.3, 0, 0); got != 0.3 {
		t.Errorf("no terms: %v, want the factor", got)
	}
}
