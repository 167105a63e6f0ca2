package index

import (
	"context"

	"github.com/askls/askls/index/walk"
)

// prewalk is the first sync's walk, started by Open beside reading the
// manifests and opening bleve (Options.WalkAtOpen): the walk is system
// calls and the ignore rules, the rest mostly reading and checking the
// manifest, so on two cores or more they overlap.
type prewalk struct {
	cancel context.CancelFunc
	done   chan struct{} // closed once every root's walk has ended
	roots  []walked      // by the index of ix.roots
}

// walked is one root's walk.
type walked struct {
	res     walk.Result
	skipped map[string]int
	err     error
}

// startWalks walks every root (but those read from their buffers only)
// on goroutines of their own.
func (ix *Index) startWalks() *prewalk {
	ctx, cancel := context.WithCancel(context.Background())
	pw := &prewalk{cancel: cancel, done: make(chan struct{}), roots: make([]walked, len(ix.roots))}
	opts := ix.walkOptions()
	n := 0
	ended := make(chan struct{})
	for i, r := range ix.roots {
		if r.buffersOnly != "" {
			continue
		}
		n++
		go func() {
			o := opts
			o.Skipped = map[string]int{}
			res, err := walk.Walk(ctx, walk.Root{Abs: r.abs, Real: r.real, Ignore: r.ign}, o)
			pw.roots[i] = walked{res: res, skipped: o.Skipped, err: err}
			ended <- struct{}{}
		}()
	}
	go func() {
		for range n {
			<-ended
		}
		close(pw.done)
	}()
	return pw
}

// wait waits for the walks, or for ctx; false when ctx ended first.
func (pw *prewalk) wait(ctx context.Context) bool {
	select {
	case <-pw.done:
		return true
	case <-ctx.Done():
		return false
	}
}

// stop ends the walks that have not ended and waits for them.
func (pw *prewalk) stop() {
	pw.cancel()
	<-pw.done
}

// walkOptions are the options of a walk of the roots (Skipped not set).
func (ix *Index) walkOptions() walk.Options {
	cacheDirs := map[string]bool{}
	for _, r := range ix.roots {
		cacheDirs[r.cache] = true
	}
	return walk.Options{MaxFileBytes: ix.opts.MaxFileBytes, IncludeVendor: ix.opts.IncludeVendor, SkipDirs: cacheDirs,
		MaxFiles: ix.opts.MaxFiles, MaxTotalBytes: ix.opts.MaxTotalBytes}
}
