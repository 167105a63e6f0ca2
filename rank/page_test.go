package rank

import "testing"

func TestShownOverlaps(t *testing.T) {
	t.Parallel()
	var s Shown
	if s.Overlaps("a.go", 1, 10) {
		t.Fatal("an empty page shows nothing")
	}
	s.Add("a.go", 10, 69) // a long function's first window
	for _, c := range []struct {
		path       string
		start, end int
		want       bool
	}{
		{"a.go", 60, 119, true}, // its next window
		{"a.go", 1, 9, false},   // the doc comment above it
		{"a.go", 70, 80, false}, // the next unit
		{"b.go", 10, 69, false}, // another file
		{"a.go", 69, 69, true},  // its last line
	} {
		if got := s.Overlaps(c.path, c.start, c.end); got != c.want {
			t.Errorf("Overlaps(%s:%d-%d) = %v, want %v", c.path, c.start, c.end, got, c.want)
		}
	}
}
