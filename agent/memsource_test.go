package agent

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/askls/askls/index"
)

// memSource is a small in-memory source for loop tests that do not need
// bleve ranking: chunks are blocks between blank lines, scored by how many
// query words they contain. Tests of the tools themselves run on the real
// index (tools_test.go).
type memSource map[string]string

func (m memSource) paths() []string {
	var ps []string
	for p := range m {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

func (m memSource) Search(ctx context.Context, query string, limit int, f index.Filter) ([]index.Hit, error) {
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

func (m memSource) Grep(ctx context.Context, pattern, glob string, limit int) ([]index.GrepMatch, error) {
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

func (m memSource) Content(p string) ([]byte, error) {
	s, ok := m[p]
	if !ok {
		return nil, fmt.Errorf("%s: %w", p, index.ErrNotFound)
	}
	return []byte(s), nil
}

func (m memSource) Files(glob string) ([]string, error) {
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

func (m memSource) Symbols(q string, limit int) []index.Symbol {
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

func (m memSource) Outline(p string) ([]index.Symbol, error) {
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
