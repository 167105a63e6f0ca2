package index

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"

	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index/chunk"
	"github.com/askls/askls/index/secret"
	"github.com/askls/askls/index/store"
	"github.com/askls/askls/index/walk"
)

// Snapshot is an immutable view of the index and the open-buffer content at
// one generation. It is safe for concurrent use.
//
// File lists, symbols, outlines and chunk lines come from the generation;
// Search asks the live bleve index and keeps only hits that exist in the
// generation, so a hit is never for a file the snapshot does not have.
type Snapshot struct {
	ix      *Index
	st      *state
	overlay map[string][]byte
}

// Limits on what one call returns.
const (
	maxReadBytes = 64 << 10
	maxLineBytes = 300
)

// Generation is the generation this snapshot shows.
func (s *Snapshot) Generation() uint64 { return s.st.gen }

// Content returns the whole current content of a file: the open buffer,
// else the file on disk.
func (s *Snapshot) Content(p string) ([]byte, error) {
	r, rel, ok := s.ix.split(p)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrOutsideRoot, p)
	}
	api := r.api(rel)
	if secret.IsName(rel) {
		// Open in the editor or not: a secret file is never read.
		return nil, fmt.Errorf("%w: %s (%w)", ErrNotFound, api, ErrWithheld)
	}
	if c, open := s.overlay[api]; open {
		if int64(len(c)) > s.ix.opts.MaxFileBytes {
			return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrNotFound, api, s.ix.opts.MaxFileBytes)
		}
		return c, nil
	}
	if r.buffersOnly != "" {
		return nil, fmt.Errorf("%w: %s (only open files are read: %s)", ErrNotFound, api, r.buffersOnly)
	}
	if _, indexed := s.st.files[api]; !indexed {
		if r.ign.IgnoredPath(rel, s.ix.opts.IncludeVendor) || secret.IsName(rel) {
			return nil, fmt.Errorf("%w: %s (ignored or secret)", ErrNotFound, api)
		}
	}
	data, _, err := readRegular(r, rel, s.ix.opts.MaxFileBytes)
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("%w: %s", ErrNotFound, api)
		case errors.Is(err, ErrOutsideRoot):
			return nil, err
		case errors.Is(err, walk.ErrTooLarge):
			return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrNotFound, api, s.ix.opts.MaxFileBytes)
		case errors.Is(err, walk.ErrNotRegular), errors.Is(err, walk.ErrSpecialFS):
			return nil, fmt.Errorf("%w: %s is not a regular file", ErrNotFound, api)
		case errors.Is(err, walk.ErrSecret):
			return nil, fmt.Errorf("%w: %s (it leads to a secret file; %w)", ErrNotFound, api, ErrWithheld)
		}
		return nil, fmt.Errorf("index: read %s: %w", api, err)
	}
	if walk.IsBinary(data) {
		return nil, fmt.Errorf("%w: %s is a binary file", ErrNotFound, api)
	}
	return data, nil
}

// Read returns lines start..end (1-based, inclusive, clamped to the file;
// end <= 0 means to the end), cut at 64 KiB.
func (s *Snapshot) Read(p string, start, end int) (Text, error) {
	data, err := s.Content(p)
	if err != nil {
		return Text{}, err
	}
	api, _ := s.ix.normalize(p)
	li := chunk.NewLines(data)
	n := li.Count()
	if start < 1 {
		start = 1
	}
	if end <= 0 || end > n {
		end = n
	}
	t := Text{Path: api, Start: start, End: end, Lines: n}
	if n == 0 {
		t.Start, t.End = 0, 0
		return t, nil
	}
	if start > n {
		return Text{}, fmt.Errorf("%w: %s has %d lines, line %d asked", ErrBadQuery, api, n, start)
	}
	if end < start {
		return Text{}, fmt.Errorf("%w: end line %d is before start line %d", ErrBadQuery, end, start)
	}
	var b strings.Builder
	for l := start; l <= end; l++ {
		line := li.Text(data, l, l)
		if b.Len()+len(line) > maxReadBytes {
			t.End = l - 1
			t.Truncated = true
			break
		}
		b.Write(line)
		if !bytes.HasSuffix(line, []byte("\n")) {
			b.WriteByte('\n')
		}
	}
	t.Content = b.String()
	return t, nil
}

// Files lists indexed paths matching glob ("**" crosses folders; a glob
// without "/" matches base names), and open buffers not yet indexed.
func (s *Snapshot) Files(glob string) ([]string, error) {
	var re *walk.Glob
	if glob != "" && glob != "**" {
		var err error
		if re, err = walk.NewGlob(glob); err != nil {
			return nil, fmt.Errorf("%w: glob %q: %v", ErrBadQuery, glob, err)
		}
	}
	s.st.index()
	var out []string
	for _, p := range s.st.paths {
		if re == nil || re.MatchString(p) {
			out = append(out, p)
		}
	}
	added := false
	for p := range s.overlay {
		if _, ok := s.st.files[p]; !ok && !secret.IsName(p) && (re == nil || re.MatchString(p)) {
			out = append(out, p)
			added = true
		}
	}
	if added {
		sort.Strings(out)
	}
	return out, nil
}

// Grep matches a Go regexp against every line of the current content of the
// files matching pathGlob (empty: all). limit <= 0 means 100.
func (s *Snapshot) Grep(ctx context.Context, pattern, pathGlob string, limit int) ([]GrepMatch, error) {
	if pattern == "" {
		return nil, fmt.Errorf("%w: empty pattern", ErrBadQuery)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadQuery, err)
	}
	if limit <= 0 {
		limit = 100
	}
	paths, err := s.Files(pathGlob)
	if err != nil {
		return nil, err
	}
	var out []GrepMatch
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		data, err := s.Content(p)
		if err != nil || !re.Match(data) {
			continue
		}
		line := 0
		for len(data) > 0 {
			line++
			i := bytes.IndexByte(data, '\n')
			var l []byte
			if i < 0 {
				l, data = data, nil
			} else {
				l, data = data[:i], data[i+1:]
			}
			if re.Match(l) {
				out = append(out, GrepMatch{Path: p, Line: line, Text: capLine(string(bytes.TrimRight(l, "\r")))})
				if len(out) >= limit {
					return out, nil
				}
			}
		}
	}
	return out, nil
}

func capLine(s string) string {
	if len(s) <= maxLineBytes {
		return s
	}
	cut := maxLineBytes
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// hasFile reports whether the snapshot holds the file at API path p.
func (s *Snapshot) hasFile(p string) bool { return s.st.files[p] != nil }

// hasDir reports whether the snapshot holds a file under the folder at
// API path d ("" is the root).
func (s *Snapshot) hasDir(d string) bool {
	s.st.index()
	prefix := d + "/"
	if d == "" {
		return len(s.st.paths) > 0
	}
	i := sort.SearchStrings(s.st.paths, prefix)
	return i < len(s.st.paths) && strings.HasPrefix(s.st.paths[i], prefix)
}

// proseLangs are the languages of prose and documentation (lang.go).
var proseLangs = map[string]bool{"markdown": true, "text": true, "html": true, "rst": true, "asciidoc": true, "man": true, "roff": true}

// Class is the class the search gives the indexed file at API path p
// (see classOf): the same answer for the retrieval answer and the tools
// as for the ranking. ok is false when the snapshot does not hold p (a
// new open buffer, a path outside the roots); the caller then decides by
// the name alone (corpus.Classify).
func (s *Snapshot) Class(p string) (c corpus.Class, ok bool) {
	e := s.st.files[p]
	if e == nil {
		return 0, false
	}
	return s.classOf(p, e), true
}

// classOf is the class of the indexed file at API path p (corpus.Classify,
// and what the indexer learnt reading it: a test, generated, prose by its
// language, build output beside its sources; and what it is to its root,
// roleOf: a web asset, a command-line tool). It is computed once per
// generation: IsBuiltCopy depends on the other files of the tree.
func (s *Snapshot) classOf(p string, e *store.Entry) corpus.Class {
	if c, ok := s.st.classes.Load(p); ok {
		return c.(corpus.Class)
	}
	c := corpus.Classify(p)
	if e.Test {
		c |= corpus.Test
	}
	if e.Generated || corpus.IsBuiltCopy(p, s.hasFile, s.hasDir) {
		c |= corpus.Generated
	}
	if proseLangs[e.Lang] {
		c |= corpus.Prose
	}
	c |= s.roleOf(p, e)
	s.st.classes.Store(p, c)
	return c
}
