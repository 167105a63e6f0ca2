package workspace

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// ErrNoSuchFile: the index holds no file by the name a front end gave.
var ErrNoSuchFile = errors.New("no such file in the workspace")

// Locate finds file p in the index: p is an index path ("pkg/a.go",
// "./pkg/a.go"), or a path relative to the working folder, or absolute.
// It returns the index path and the file's content as the index has it,
// or an error wrapping ErrNoSuchFile.
func (w *Workspace) Locate(ctx context.Context, p string) (string, []byte, error) {
	ix, err := w.Index(ctx)
	if err != nil {
		return "", nil, err
	}
	snap := ix.Snapshot()
	if !filepath.IsAbs(p) {
		rel := strings.TrimPrefix(filepath.ToSlash(p), "./")
		if content, err := snap.Content(rel); err == nil {
			return rel, content, nil
		}
	}
	if abs, err := filepath.Abs(p); err == nil {
		if rel, ok := ix.Rel(abs); ok {
			if content, err := snap.Content(rel); err == nil {
				return rel, content, nil
			}
		}
	}
	return "", nil, fmt.Errorf("%w: %s", ErrNoSuchFile, p)
}
