package tools

import (
	"context"

	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index"
)

// Source is the part of an index snapshot the agent reads. *index.Snapshot
// implements it; tests may pass a small in-memory one.
type Source interface {
	Search(ctx context.Context, query string, limit int, f index.Filter) ([]index.Hit, error)
	Grep(ctx context.Context, pattern, pathGlob string, limit int) ([]index.GrepMatch, error)
	Content(path string) ([]byte, error)
	Files(glob string) ([]string, error)
	Symbols(query string, limit int) []index.Symbol
	Outline(path string) ([]index.Symbol, error)
	// Class is the class the index gives the file at path (test, prose,
	// generated, declarations...); ok is false for a file it does not
	// hold (see NotCodeIn).
	Class(path string) (c corpus.Class, ok bool)
}

var _ Source = (*index.Snapshot)(nil)
