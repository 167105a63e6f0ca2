package tools

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
)

// maxReferenceFiles caps the files a search for references reads when
// the index cannot say which hold the name.
const maxReferenceFiles = 50000

// RefQuery asks where a name occurs in the code of a workspace.
type RefQuery struct {
	// Name is the identifier, bare ("WithCancel", "ServeHTTP").
	Name string
	// Calls keeps only calls ("Name(", "Name (").
	Calls bool
	// Tests keeps test files too (left out by default).
	Tests bool
	// Qualifier, when set, is the Go package name a use outside Folder
	// must be qualified with ("context" for context.WithCancel): a
	// package-level name of package context is written context.WithCancel
	// elsewhere, and a bare WithCancel there is another one; inside
	// Folder it is written bare, and x.WithCancel there is a method of
	// another value.
	Qualifier string
	Folder    string
	// Skip leaves out lines of path (the definition itself); may be nil.
	Skip func(path string, line int) bool
	// DeclPath and DeclLine are where the definition is declared, when
	// one was found (0: none).
	DeclPath string
	DeclLine int
}

// Reference is one occurrence of a name in code.
type Reference struct {
	Path string `json:"path"`
	Line int    `json:"line"` // 1-based
	Col  int    `json:"col"`  // byte offset in the line, 0-based
	Text string `json:"text"` // the line
}

// References are the occurrences of a name in the code of a workspace,
// by folder, then file, then line: never in a comment or a string (a
// light lexer per language family, see ScanProse).
type References struct {
	Name  string      `json:"name"`
	Calls bool        `json:"calls"`
	Sites []Reference `json:"sites"`
	Files int         `json:"files"`
	// Capped: not every file that may hold the name was read; the count
	// is a floor.
	Capped bool `json:"capped,omitempty"`
}

// FindReferences lists where q.Name occurs in the code of snap.
func FindReferences(ctx context.Context, snap *index.Snapshot, q RefQuery) (References, error) {
	tb := NewBox(snap, citations.NewRegistry())
	tb.once = true
	return ReferencesOf(ctx, snap, tb, q)
}

var identNameRE = regexp.MustCompile(`^[\p{L}_$][\p{L}\p{N}_$]*$`)

func ReferencesOf(ctx context.Context, src Source, tb *Box, q RefQuery) (References, error) {
	out := References{Name: q.Name, Calls: q.Calls}
	if !identNameRE.MatchString(q.Name) {
		return out, fmt.Errorf("%w: %q is not an identifier", index.ErrBadQuery, q.Name)
	}
	paths, capped, err := candidateFiles(ctx, src, q.Name)
	if err != nil {
		return out, err
	}
	out.Capped = capped
	if !q.Tests {
		paths = slices.DeleteFunc(paths, IsTestPath)
	}
	found, err := scanFiles(ctx, src, tb, paths, func(p string, content []byte) []Reference {
		return occurrencesIn(p, content, q)
	})
	if err != nil {
		return out, err
	}
	for _, ff := range found {
		out.Sites = append(out.Sites, ff.sites...)
	}
	out.Files = len(found)
	sortSites(out.Sites, q.Folder)
	return out, nil
}

// sortSites orders sites by folder (folder, the definition's, first),
// then file, then line.
func sortSites(sites []Reference, folder string) {
	sort.SliceStable(sites, func(i, j int) bool { return siteLess(sites[i], sites[j], folder) })
}

// siteLess orders a before b: by folder (folder first), file, line.
func siteLess(a, b Reference, folder string) bool {
	if da, db := path.Dir(a.Path), path.Dir(b.Path); da != db {
		if folder != "" && (da == folder) != (db == folder) {
			return da == folder // the definition's folder first
		}
		return da < db
	}
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	return a.Line < b.Line
}

// fileSites are the sites found in one file, and the file.
type fileSites[T any] struct {
	path  string
	f     *citations.LineIndex
	sites []T
}

// scanFiles reads paths on a few goroutines (the files of a search for
// references are read whole: most of its time) and returns, in the
// order of paths, the files where find found something. The files found
// join tb's cache, so that citing their lines reads nothing again; tb is
// only read while the goroutines run.
func scanFiles[T any](ctx context.Context, src Source, tb *Box, paths []string, find func(p string, content []byte) []T) ([]fileSites[T], error) {
	res := make([]fileSites[T], len(paths))
	workers := min(runtime.GOMAXPROCS(0), 8, len(paths))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(paths) || ctx.Err() != nil {
					return
				}
				p := paths[i]
				f, cached := tb.files[p]
				var c []byte
				if cached {
					c = f.Content()
				} else {
					var err error
					if c, err = src.Content(p); err != nil {
						continue
					}
				}
				if sites := find(p, c); len(sites) > 0 {
					if f == nil && !tb.once {
						f = citations.NewLineIndex(c) // only the files cited from are indexed by line
					}
					res[i] = fileSites[T]{path: p, f: f, sites: sites}
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []fileSites[T]
	for _, r := range res {
		if r.sites == nil {
			continue
		}
		if r.f != nil {
			tb.files[r.path] = r.f
		}
		out = append(out, r)
	}
	return out, nil
}

// occurrencesIn are the occurrences of q.Name in the code of one file
// (p's content): whole identifiers (RefQuery.Matches), outside comments and
// strings, not on lines q.Skip leaves out.
func occurrencesIn(p string, content []byte, q RefQuery) []Reference {
	name := []byte(q.Name)
	last := bytes.LastIndex(content, name)
	if last < 0 {
		return nil
	}
	var out []Reference
	var pr *Prose
	line, lineStart := 1, 0 // the line of offset lineStart
	for from := 0; ; {
		i := bytes.Index(content[from:], name)
		if i < 0 {
			break
		}
		at := from + i
		from = at + len(name)
		line += bytes.Count(content[lineStart:at], []byte{'\n'})
		if k := bytes.LastIndexByte(content[:at], '\n'); k >= 0 {
			lineStart = k + 1
		} else {
			lineStart = 0
		}
		lineEnd := len(content)
		if k := bytes.IndexByte(content[at:], '\n'); k >= 0 {
			lineEnd = at + k
		}
		text := string(content[lineStart:lineEnd])
		col := at - lineStart
		if !q.Matches(text, []int{col, col + len(name)}, p) || (q.Skip != nil && q.Skip(p, line)) {
			continue
		}
		if pr == nil {
			scanned := scanProseUpTo(p, content, last+len(name))
			pr = &scanned
		}
		if pr.In(line, col) {
			continue
		}
		out = append(out, Reference{Path: p, Line: line, Col: col, Text: strings.TrimRight(text, "\r\n")})
	}
	return out
}

// wordFiler finds the files that may hold a word (index.Snapshot does,
// from its index).
type wordFiler interface {
	FilesWithWord(ctx context.Context, word string) ([]string, bool, error)
}

// candidateFiles are the files that may hold name: those the index says
// hold it as a word, else every file.
func candidateFiles(ctx context.Context, src Source, name string) ([]string, bool, error) {
	if wf, ok := src.(wordFiler); ok {
		if paths, capped, err := wf.FilesWithWord(ctx, name); err == nil && !capped {
			return paths, false, nil
		}
	}
	paths, err := src.Files("")
	if err != nil {
		return nil, false, err
	}
	if len(paths) > maxReferenceFiles {
		return paths[:maxReferenceFiles], true, nil
	}
	return paths, false, nil
}

// isWhole: text[start:end] is not a part of a longer identifier.
func isWhole(text string, start, end int) bool {
	identByte := func(c byte) bool {
		return c == '_' || c == '$' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return !(start > 0 && identByte(text[start-1]) || end < len(text) && identByte(text[end]))
}

// Matches reports whether the match at loc in text, a line of file p,
// is an occurrence: the whole identifier (not a part of a longer one),
// followed by a call's '(' when only calls count, and for a Go
// package-level name qualified by its package outside its folder and
// bare inside it.
func (q RefQuery) Matches(text string, loc []int, p string) bool {
	if !isWhole(text, loc[0], loc[1]) {
		return false
	}
	if q.Calls && !strings.HasPrefix(strings.TrimLeft(text[loc[1]:], " \t"), "(") {
		return false
	}
	if q.Qualifier != "" {
		before := text[:loc[0]]
		if path.Dir(p) != q.Folder {
			return strings.HasSuffix(before, q.Qualifier+".")
		}
		// In its own package a package-level name is written bare:
		// t.Name is a field or method of another value, and
		// func (t T) Name( declares a method.
		return !strings.HasSuffix(before, ".") && !isMethodDecl(before)
	}
	return true
}

// isMethodDecl reports whether a Go line up to a name declares a method
// of that name: "func (t T) ".
func isMethodDecl(before string) bool {
	b := strings.TrimSpace(before)
	return strings.HasPrefix(b, "func (") && strings.HasSuffix(b, ")")
}

// RefQueryFor is the reference query for a definition the answer cites:
// its bare name, its folder, and for a Go package-level name the name of
// its package (its file's package clause), which uses elsewhere qualify
// it with.
func RefQueryFor(d index.Hit, f *citations.LineIndex, calls bool) RefQuery {
	name := SymbolName(d.Symbol)
	q := RefQuery{Name: name, Calls: calls, Folder: path.Dir(d.Path)}
	if strings.HasSuffix(d.Path, ".go") && !strings.Contains(d.Symbol, ".") && f != nil {
		for l := 1; l <= min(f.Count(), 400); l++ {
			if text, _ := f.Lines(l, l); strings.HasPrefix(text, "package ") {
				if pkg := strings.Fields(text); len(pkg) > 1 && pkg[1] != "main" {
					q.Qualifier = pkg[1]
				}
				break
			}
		}
	}
	q.Skip = func(p string, line int) bool { return p == d.Path && line >= d.Start && line <= d.End }
	return q
}

// Plural writes n and a noun, "1 file", "3 files".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
