package chunk

import "testing"

// TestEveryOutlineRuleCompiles: the outliners' rules compile at their
// first use (lazyRegexp); each compiles.
func TestEveryOutlineRuleCompiles(t *testing.T) {
	if len(outliners) == 0 {
		t.Fatal("no outliner registered")
	}
	n := 0
	for _, o := range outliners {
		for _, r := range o.rules {
			if r.re == nil || r.re() == nil {
				t.Errorf("a rule of kind %q has no regexp", r.kind)
			}
			if r.above != nil && r.above() == nil {
				t.Errorf("a rule of kind %q has no regexp for the line above", r.kind)
			}
			n++
		}
	}
	t.Logf("%d rules", n)
}
