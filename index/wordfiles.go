package index

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/askls/askls/index/store"
	"github.com/blevesearch/bleve/v2"
)

// maxWordChunks caps the chunks FilesWithWord reads: a word in more is
// in most of the workspace.
const maxWordChunks = 20000

// FilesWithWord returns the files whose indexed text holds word as a
// whole identifier (the code analyzer indexes each identifier whole,
// lower-cased and stemmed, besides its parts), and the open buffers that changed
// since they were indexed, sorted. It is how a search for the uses of a
// name reads a few files instead of all of them; the caller still reads
// each file to find the lines. capped is true when more chunks held the
// word than were read.
func (s *Snapshot) FilesWithWord(ctx context.Context, word string) (paths []string, capped bool, err error) {
	// The word as the index holds it: its first term is the whole
	// identifier, lower-cased and stemmed as the content was.
	ts := store.AnalyzeCode([]byte(word), nil)
	if strings.TrimSpace(word) == "" || strings.ContainsAny(strings.TrimSpace(word), " \t\n") || len(ts) == 0 {
		return nil, false, fmt.Errorf("%w: %q is not one word", ErrBadQuery, word)
	}
	term := string(ts[0].Term)
	seen := map[string]bool{}
	for _, r := range s.ix.roots {
		req := bleve.NewSearchRequestOptions(termQuery(term, store.FieldContent, 0), maxWordChunks, 0, false)
		res, err := r.bi.SearchInContext(ctx, req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, false, ctx.Err()
			}
			return nil, false, fmt.Errorf("index: files with %q: %w", word, err)
		}
		capped = capped || res.Total > uint64(len(res.Hits))
		for _, h := range res.Hits {
			rel, _, ok := store.ParseDocID(h.ID)
			if !ok {
				continue
			}
			if api := r.api(rel); s.st.files[api] != nil {
				seen[api] = true
			}
		}
	}
	for api := range s.staleBuffers() {
		seen[api] = true
	}
	for p := range seen {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths, capped, nil
}
