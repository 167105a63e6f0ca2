package index

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index/walk"
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
	res, err := walk.Walk(ctx, walk.Root{Abs: abs, Real: real, Ignore: walk.NewIgnorer(abs, nil, "")}, walk.Options{MaxFileBytes: maxFileBytes})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, res.Len())
	for _, f := range res.Files() {
		out = append(out, f.Rel)
	}
	return out, nil
}

// IsTest reports whether a path (slash-separated, relative to its root) is
// a test file or test data: what Filter.NoTests leaves out.
func IsTest(path string) bool { return isTestPath(path) }

// isTestPath reports whether p is a test file or test data, by the
// conventions corpus.Classify knows.
func isTestPath(p string) bool { return corpus.Classify(p).Has(corpus.Test) }
