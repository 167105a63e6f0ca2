package tools

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
)

// Box runs tools for one Ask over one snapshot and registers what they
// return as evidence.
type Box struct {
	src   Source
	reg   *citations.Registry
	files map[string]*citations.LineIndex
	// once: the Box serves one call that cites nothing (FindReferences
	// for the language server): the files a search reads are not kept.
	once bool
}

func NewBox(src Source, reg *citations.Registry) *Box {
	return &Box{src: src, reg: reg, files: map[string]*citations.LineIndex{}}
}

// File returns a file's content in this snapshot with its lines indexed,
// cached for the Ask (the snapshot does not change under it).
func (tb *Box) File(p string) (*citations.LineIndex, error) {
	if f, ok := tb.files[p]; ok {
		return f, nil
	}
	c, err := tb.src.Content(p)
	if err != nil {
		return nil, err
	}
	f := citations.NewLineIndex(c)
	tb.files[p] = f
	return f, nil
}

// Content returns a file's content in this snapshot, cached for the Ask.
func (tb *Box) Content(p string) ([]byte, error) {
	f, err := tb.File(p)
	if err != nil {
		return nil, err
	}
	return f.Content(), nil
}

// evidence registers lines start..end of p and writes them, numbered,
// under a header "[n] p:start-end note".
func (tb *Box) evidence(w *strings.Builder, p string, f *citations.LineIndex, start, end int, symbol, note string) (int, bool) {
	text, ok := f.Lines(start, end)
	if !ok {
		return 0, false
	}
	id := tb.reg.Add(p, start, end, text, symbol)
	fmt.Fprintf(w, "[%d] %s:%d-%d", id, p, start, end)
	if note != "" {
		w.WriteString(" " + note)
	}
	w.WriteByte('\n')
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		fmt.Fprintf(w, "%6d  %s\n", start+i, CutLine(line))
	}
	return id, true
}

func CutLine(s string) string {
	if len(s) <= maxLineChars {
		return s
	}
	k := maxLineChars
	for k > 0 && s[k]&0xC0 == 0x80 {
		k--
	}
	return s[:k] + "…"
}

// cleanPath checks a path argument: relative, slash-separated, inside the
// workspace.
func cleanPath(p string) (string, error) {
	p = strings.TrimSpace(strings.ReplaceAll(p, "\\", "/"))
	p = strings.TrimPrefix(p, "./")
	if p == "" {
		return "", errors.New("empty path")
	}
	if strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("%q: %w: give the path relative to the workspace root, as search_code prints it", p, index.ErrOutsideRoot)
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("%q: %w", p, index.ErrOutsideRoot)
	}
	return c, nil
}

// notFound explains a missing file and suggests files with the same name.
func (tb *Box) notFound(p string, err error) error {
	if !errors.Is(err, index.ErrNotFound) {
		return err
	}
	if errors.Is(err, index.ErrWithheld) {
		// Say what happened, never what is in it.
		return fmt.Errorf("%s: withheld: it is a secret file (or leads to one), which askls never reads or shows", p)
	}
	msg := fmt.Sprintf("%s: file not found in the workspace", p)
	if similar, _ := tb.src.Files("**/" + path.Base(p)); len(similar) > 0 {
		if len(similar) > 5 {
			similar = similar[:5]
		}
		msg += "; files with that name: " + strings.Join(similar, ", ")
	} else {
		msg += "; use search_code or list_files to find the right path"
	}
	return errors.New(msg)
}
