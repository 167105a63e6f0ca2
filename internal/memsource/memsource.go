// Package memsource is a test helper: a small in-memory workspace that
// answers what the agent and its tools read of an index snapshot
// (search, grep, content, files, symbols, outline), for the tests that
// do not need bleve's ranking. A Source is read-only and safe for
// concurrent use.
package memsource

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index"
)

// Source is a small in-memory workspace, path to content: chunks are
// blocks between blank lines, scored by how many query words they
// contain. Tests of the tools themselves run on the real index.
type Source map[string]string

func (m Source) paths() []string {
	var ps []string
	for p := range m {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

func (m Source) Search(ctx context.Context, query string, limit int, f index.Filter) ([]index.Hit, error) {
	words := strings.Fields(strings.ToLower(query))
	var hits []index.Hit
	for _, p := range m.paths() {
		lines := strings.Split(strings.TrimSuffix(m[p], "\n"), "\n")
		start := 0
		for i := 0; i <= len(lines); i++ {
			if i < len(lines) && strings.TrimSpace(lines[i]) != "" {
				continue
			}
			if i > start {
				block := strings.ToLower(strings.Join(lines[start:i], "\n"))
				score := 0
				for _, w := range words {
					if strings.Contains(block, w) {
						score++
					}
				}
				if score > 0 {
					hits = append(hits, index.Hit{Path: p, Start: start + 1, End: i, Score: float64(score), Excerpt: lines[start], Language: "go"})
				}
			}
			start = i + 1
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, ctx.Err()
}

func (m Source) Grep(ctx context.Context, pattern, glob string, limit int) ([]index.GrepMatch, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", index.ErrBadQuery, err)
	}
	var out []index.GrepMatch
	for _, p := range m.paths() {
		if glob != "" && !globMatch(glob, p) {
			continue
		}
		for i, l := range strings.Split(m[p], "\n") {
			if re.MatchString(l) && len(out) < limit {
				out = append(out, index.GrepMatch{Path: p, Line: i + 1, Text: l})
			}
		}
	}
	return out, nil
}

func (m Source) Content(p string) ([]byte, error) {
	s, ok := m[p]
	if !ok {
		return nil, fmt.Errorf("%s: %w", p, index.ErrNotFound)
	}
	return []byte(s), nil
}

func (m Source) Files(glob string) ([]string, error) {
	var out []string
	for _, p := range m.paths() {
		if glob == "" || globMatch(glob, p) { // "": every file, as index.Snapshot.Files
			out = append(out, p)
		}
	}
	return out, nil
}

func globMatch(glob, p string) bool {
	if strings.HasPrefix(glob, "**/") {
		return globMatch(glob[3:], path.Base(p)) || globMatch(glob[3:], p)
	}
	ok, _ := path.Match(glob, p)
	return ok
}

var declRE = regexp.MustCompile(`^(func|type) (\([^)]*\) )?(\w+)`)

func (m Source) Symbols(q string, limit int) []index.Symbol {
	var out []index.Symbol
	for _, p := range m.paths() {
		syms, _ := m.Outline(p)
		for _, s := range syms {
			if strings.Contains(strings.ToLower(s.Name), strings.ToLower(q)) && len(out) < limit {
				out = append(out, s)
			}
		}
	}
	return out
}

func (m Source) Outline(p string) ([]index.Symbol, error) {
	s, ok := m[p]
	if !ok {
		return nil, fmt.Errorf("%s: %w", p, index.ErrNotFound)
	}
	var out []index.Symbol
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if sm := declRE.FindStringSubmatch(l); sm != nil {
			end := i
			for end < len(lines) && strings.HasSuffix(l, "{") && lines[end] != "}" {
				end++
			}
			out = append(out, index.Symbol{Name: sm[3], Kind: sm[1], Path: p, Line: i + 1, EndLine: end + 1, Signature: strings.TrimSuffix(l, " {"), Language: "go"})
		}
	}
	return out, nil
}

// Class knows no file's class: the tools then classify a path by its
// name (tools.NotCode), as for a file no index holds.
func (m Source) Class(p string) (corpus.Class, bool) { return 0, false }
