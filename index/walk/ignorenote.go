package walk

import (
	"cmp"
	"fmt"
	"slices"
)

// ignoreNotes explains a walk that ignore rules emptied or nearly
// emptied: when the walk kept no file, the rules that excluded the most
// (up to three); when it kept some, a rule that alone excluded at least
// three quarters of the root's top-level entries (at least four of them).
// Each note names the ignore file, the line and the pattern, so a user can
// see why a folder they opened was not indexed. It returns nil when the
// rules did nothing remarkable.
func (w *walker) ignoreNotes() []string {
	if len(w.excluded) == 0 {
		return nil
	}
	exs := make([]*exclusion, 0, len(w.excluded))
	for _, ex := range w.excluded {
		exs = append(exs, ex)
	}
	slices.SortFunc(exs, func(a, b *exclusion) int {
		if c := cmp.Compare(b.topLevel, a.topLevel); c != 0 {
			return c
		}
		if c := cmp.Compare(b.entries, a.entries); c != 0 {
			return c
		}
		if c := cmp.Compare(a.r.src, b.r.src); c != 0 {
			return c
		}
		return cmp.Compare(a.r.line, b.r.line)
	})
	var notes []string
	if w.nFiles == 0 {
		for _, ex := range exs[:min(3, len(exs))] {
			notes = append(notes, fmt.Sprintf("nothing to index in %s: %s", w.root.Abs, w.describe(ex)))
		}
		return notes
	}
	ex := exs[0]
	if w.rootEntries >= 4 && ex.topLevel*4 >= w.rootEntries*3 {
		notes = append(notes, fmt.Sprintf("only %d files to index in %s: %s", w.nFiles, w.root.Abs, w.describe(ex)))
	}
	return notes
}

// describe says what one rule excluded: ".gitignore line 159 `/*`
// excludes every top-level entry (27)".
func (w *walker) describe(ex *exclusion) string {
	what := ""
	switch {
	case ex.topLevel > 0 && ex.topLevel == w.rootEntries:
		what = fmt.Sprintf("every top-level entry (%d)", ex.topLevel)
	case ex.topLevel > 0:
		what = fmt.Sprintf("%d of the %d top-level entries", ex.topLevel, w.rootEntries)
	default:
		what = fmt.Sprintf("%d files and folders", ex.entries)
	}
	return fmt.Sprintf("%s line %d `%s` excludes %s", ex.r.src, ex.r.line, ex.r.text, what)
}
