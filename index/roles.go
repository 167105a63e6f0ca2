package index

import (
	"sort"
	"strings"

	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index/store"
)

// rootTraits are what the priors know of a root as a whole, measured
// when a generation's file first needs them (roleOf) and handed on to
// the next generation by an edit that cannot move them (carryTraits).
type rootTraits struct {
	// web: the root's commonest language of code is JavaScript or
	// TypeScript (or it holds no code): its scripts are its product.
	web bool
	// goLibrary: the root's top folder holds a Go package other than
	// main (bbolt, not GOROOT's src/ nor a command's module).
	goLibrary bool
}

// webLangs are the languages a browser runs or styles with.
var webLangs = map[string]bool{"javascript": true, "typescript": true, "css": true}

// notCodeLangs are the languages that do not count in a root's commonest
// language of code: prose, data, build files, styles.
var notCodeLangs = map[string]bool{"json": true, "yaml": true, "toml": true, "gomod": true, "make": true,
	"dockerfile": true, "sql": true, "proto": true, "css": true, "shell": true}

// roleOf is what the file at API path p is to its root beyond its name:
// a web asset of a project in another language (corpus.Asset), a
// command-line tool shipped beside a Go library (corpus.Tool), or
// neither.
func (s *Snapshot) roleOf(p string, e *store.Entry) corpus.Class {
	asset := webLangs[e.Lang]
	if !asset && e.Lang != "go" {
		return 0
	}
	r, rel := s.ix.rootOf(p)
	if r == nil {
		return 0
	}
	switch {
	case asset && corpus.InAssetDir(rel) && !s.traits(r).web:
		return corpus.Asset
	case !asset && corpus.InCommandDir(rel) && s.traits(r).goLibrary:
		return corpus.Tool
	}
	return 0
}

// traits are root r's traits in this generation.
func (s *Snapshot) traits(r *root) rootTraits {
	if t, ok := s.st.traits.Load(r.name); ok {
		return t.(rootTraits)
	}
	t := s.measureRoot(r)
	s.st.traits.Store(r.name, t)
	return t
}

// carryTraits hands the previous generation's root traits on to st when
// changed (the paths whose entries may differ; nil: any) cannot have
// moved them: no file came or went, none changed its language, and no Go
// file at a root's top changed (its package clause). An edit to an open
// buffer is such a change; measuring GOROOT's src/ again costs about
// 0.9 ms, at the first search after every keystroke.
func (ix *Index) carryTraits(st, prev *state, changed map[string]bool) {
	if changed == nil || prev == nil {
		return
	}
	for p := range changed {
		old, now := prev.files[p], st.files[p]
		if old == nil || now == nil || old.Lang != now.Lang {
			return
		}
		if now.Lang == "go" {
			if _, rel := ix.rootOf(p); !strings.Contains(rel, "/") {
				return
			}
		}
	}
	prev.traits.Range(func(k, v any) bool {
		st.traits.Store(k, v)
		return true
	})
}

// measureRoot counts root r's files by language of code and reads the
// package clause of its top folder's Go files.
func (s *Snapshot) measureRoot(r *root) rootTraits {
	s.st.index()
	prefix := ""
	if r.name != "" {
		prefix = r.name + "/"
	}
	paths := s.st.paths
	i := sort.SearchStrings(paths, prefix)
	langs := map[string]int{}
	var t rootTraits
	for ; i < len(paths) && strings.HasPrefix(paths[i], prefix); i++ {
		e := s.st.files[paths[i]]
		if !proseLangs[e.Lang] && !notCodeLangs[e.Lang] {
			langs[e.Lang]++
		}
		if e.Lang == "go" && !e.Test && !strings.Contains(paths[i][len(prefix):], "/") && goPackage(e) != "main" {
			t.goLibrary = true
		}
	}
	top, n := "", 0
	for l, c := range langs {
		if c > n || c == n && l < top {
			top, n = l, c
		}
	}
	t.web = top == "" || webLangs[top]
	return t
}

// goPackage is the package a Go file's first chunk declares ("" when
// its first chunk is not the package clause).
func goPackage(e *store.Entry) string {
	chunks := e.Chunks()
	if len(chunks) == 0 {
		return ""
	}
	name, ok := strings.CutPrefix(chunks[0].Symbol, "package ")
	if !ok {
		return ""
	}
	return name
}
