package store

import (
	"fmt"
	"testing"
)

// TestInternerNumbersInTheOrderMet: each distinct string gets the next
// number, a repeat its first number, across the slots' growth; done joins
// them in number order.
func TestInternerNumbersInTheOrderMet(t *testing.T) {
	in := newInterner(0)
	var want []string
	seen := map[string]int32{}
	for i := range 20_000 {
		s := fmt.Sprintf("name%d", i%7_000)
		if i%11 == 0 {
			s = "" // the empty string is a string like another
		}
		id := in.id(s)
		if prev, ok := seen[s]; ok {
			if id != prev {
				t.Fatalf("%q: number %d, first given %d", s, id, prev)
			}
			continue
		}
		if int(id) != len(want) {
			t.Fatalf("%q: number %d, want the next one, %d", s, id, len(want))
		}
		seen[s] = id
		want = append(want, s)
	}
	if in.len() != len(want) {
		t.Fatalf("len %d, want %d", in.len(), len(want))
	}
	for id, s := range want {
		if got := in.get(int32(id)); got != s {
			t.Fatalf("get(%d) = %q, want %q", id, got, s)
		}
	}
	blob, offs := in.done()
	if len(offs) != len(want)+1 || int(offs[len(want)]) != len(blob) {
		t.Fatalf("done: %d offsets for %d strings, last %d of %d bytes", len(offs), len(want), offs[len(offs)-1], len(blob))
	}
	for id, s := range want {
		if got := blob[offs[id]:offs[id+1]]; got != s {
			t.Fatalf("done: string %d is %q, want %q", id, got, s)
		}
	}
}
