package index

import (
	"context"
	"fmt"
	"path/filepath"
)

// ListFiles lists the files under rootDir that a Sync would consider, as
// slash-separated paths relative to rootDir, in walk order: the ignore
// rules, the folders never walked, vendored folders, the size limit
// (maxFileBytes <= 0: the default) and binaries known by name applied. It
// reads no file's content, so binary, secret or non-UTF-8 content that a
// Sync would skip is still listed.
func ListFiles(ctx context.Context, rootDir string, maxFileBytes int64) ([]string, error) {
	if maxFileBytes <= 0 {
		maxFileBytes = defaultMaxFileBytes
	}
	abs, err := filepath.Abs(rootDir)
	if err != nil {
		return nil, fmt.Errorf("index: root %s: %w", rootDir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("index: root %s: %w", rootDir, err)
	}
	r := &root{abs: abs, real: real, ign: newIgnorer(abs, nil)}
	w := &walker{root: r, maxBytes: maxFileBytes, skipped: map[string]int{}}
	if err := w.walk(ctx); err != nil {
		return nil, err
	}
	out := make([]string, len(w.files))
	for i, f := range w.files {
		out[i] = f.rel
	}
	return out, nil
}

// IsTest reports whether a path (slash-separated, relative to its root) is
// a test file or test data: what Filter.NoTests leaves out.
func IsTest(path string) bool { return isTestPath(path) }
