package agent

import (
	"strings"
	"testing"
)

// A follow-up asking what implements the interface the first answer
// cited lists the types, each cited on its declaration, and cites no
// unit that declares none of them.
func TestWhatImplementsThatFollowUp(t *testing.T) {
	snap := fixtureSnapshot(t, "implementations.txtar")
	res := askThreadChecked(t, snap, "where is `Shape` defined?", "which types implement it?")
	ans := res[1].Answer
	for _, want := range []string{
		"### Types that implement `shapes.Shape` in the workspace (code only, tests left out)\n\n4 types in 2 files:\n",
		"- geo/square.go:6: `type Square struct{ Side float64 }` [",
		"- shapes/shape.go:30: `type bigCircle struct {` (through `circle`) [",
	} {
		if !strings.Contains(ans, want) {
			t.Errorf("answer lacks %q:\n%s", want, ans)
		}
	}
	for _, not := range []string{"partial", "wrongSig", "fake_test", "Also relevant"} {
		if strings.Contains(ans, not) {
			t.Errorf("answer cites %s:\n%s", not, ans)
		}
	}
}
