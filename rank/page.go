package rank

// Shown is the line ranges a page of hits already shows, by file: the
// diversity stage's last step. A long unit is indexed as overlapping
// windows and a merged chunk can narrow to a unit another hit shows, so
// two candidates often stand for the same lines; the page shows them
// once and puts a hit over lines it already shows after every other hit
// (Search with a larger limit still returns it).
type Shown struct {
	at map[string][][2]int
}

// Overlaps reports whether lines start..end of path overlap a range
// added before.
func (s *Shown) Overlaps(path string, start, end int) bool {
	for _, r := range s.at[path] {
		if r[0] <= end && start <= r[1] {
			return true
		}
	}
	return false
}

// Add records lines start..end of path as shown.
func (s *Shown) Add(path string, start, end int) {
	if s.at == nil {
		s.at = map[string][][2]int{}
	}
	s.at[path] = append(s.at[path], [2]int{start, end})
}
