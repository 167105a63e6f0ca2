package citations

import "testing"

func TestAnchor(t *testing.T) {
	const content = "l1\nl2\ncited a\ncited b\nl5\n"
	// The citation covers lines 3-4: bytes 6..21.
	base := Citation{N: 1, Path: "f", Start: 3, End: 4}
	tests := []struct {
		name       string
		edits      []Edit
		start, end int
		stale      bool
		text       string // the cited bytes after the edits, when not stale
	}{
		{"no edit", nil, 3, 4, false, "cited a\ncited b"},
		{"insert line before", []Edit{{0, 0, "new\n"}}, 4, 5, false, "cited a\ncited b"},
		{"delete line before", []Edit{{0, 3, ""}}, 2, 3, false, "cited a\ncited b"},
		{"change within a line before", []Edit{{1, 2, "ONE"}}, 3, 4, false, "cited a\ncited b"},
		{"insert two lines before", []Edit{{3, 3, "x\ny\n"}}, 5, 6, false, "cited a\ncited b"},
		{"insert a line at its start", []Edit{{6, 6, "new\n"}}, 4, 5, false, "cited a\ncited b"},
		{"type at its start", []Edit{{6, 6, "x"}}, 3, 4, true, ""},
		{"join with the line before", []Edit{{5, 6, ""}}, 2, 3, true, ""},
		{"edit inside", []Edit{{8, 9, "T"}}, 3, 4, true, ""},
		{"edit spanning its start", []Edit{{4, 8, ""}}, 2, 3, true, ""},
		{"type at its end", []Edit{{21, 21, "!"}}, 3, 4, true, ""},
		{"insert a line after", []Edit{{21, 21, "\nmore"}}, 3, 4, false, "cited a\ncited b"},
		{"join with the line after", []Edit{{21, 22, ""}}, 3, 4, true, ""},
		{"edit after", []Edit{{22, 24, "L"}}, 3, 4, false, "cited a\ncited b"},
		{"append at the end", []Edit{{25, 25, "l6\n"}}, 3, 4, false, "cited a\ncited b"},
		{"several", []Edit{{0, 0, "a\n"}, {0, 0, "b\n"}, {25, 28, ""}}, 5, 6, false, "cited a\ncited b"},
		{"out of range clamps", []Edit{{90, 99, "z"}}, 3, 4, false, "cited a\ncited b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := NewAnchor(base, []byte(content))
			if c := a.Citation(); c.StartByte != 6 || c.EndByte != 21 {
				t.Fatalf("initial bytes %d..%d", c.StartByte, c.EndByte)
			}
			for _, e := range tt.edits {
				a.Apply(e)
			}
			c := a.Citation()
			if c.Stale != tt.stale {
				t.Errorf("stale = %v, want %v", c.Stale, tt.stale)
			}
			if c.Start != tt.start || c.End != tt.end {
				t.Errorf("lines %d-%d, want %d-%d", c.Start, c.End, tt.start, tt.end)
			}
			if !tt.stale {
				if got := string(a.Content()[c.StartByte:c.EndByte]); got != tt.text {
					t.Errorf("cited bytes %q, want %q", got, tt.text)
				}
				s, e := LineSpan(a.Content(), c.Start, c.End)
				if s != c.StartByte || e != c.EndByte {
					t.Errorf("lines and bytes disagree: %d..%d vs %d..%d", s, e, c.StartByte, c.EndByte)
				}
			}
		})
	}
}
