package rootflag

import (
	"flag"
	"fmt"
	"path/filepath"

	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/memtune"
)

// Flags are the workspace flags of a command.
type Flags struct {
	Roots          []string // --root, repeatable; none: the current folder
	Cache          string
	MaxFileBytes   int64
	MaxFiles       int
	MaxTotalBytes  int64
	AllowBroadRoot bool
}

// Register adds --root DIR (repeatable), --cache DIR, --max-file-bytes N,
// --max-files N, --max-total-bytes N and --allow-broad-root to fs.
func (f *Flags) Register(fs *flag.FlagSet) {
	fs.Func("root", "workspace root `DIR` (repeatable; default: the current folder)", func(s string) error {
		f.Roots = append(f.Roots, s)
		return nil
	})
	fs.StringVar(&f.Cache, "cache", "", "index cache `DIR` (default $ASKLS_CACHE_DIR, else the user cache folder)")
	fs.Int64Var(&f.MaxFileBytes, "max-file-bytes", index.DefaultMaxFileBytes, "skip files larger than `N` bytes")
	fs.IntVar(&f.MaxFiles, "max-files", 0,
		fmt.Sprintf("stop when a root has more than `N` files to index (default %d; -1: no limit)", index.DefaultMaxFiles))
	fs.Int64Var(&f.MaxTotalBytes, "max-total-bytes", 0,
		fmt.Sprintf("stop when a root has more than `N` bytes to index (default %d GiB; -1: no limit)", index.DefaultMaxTotalBytes>>30))
	fs.BoolVar(&f.AllowBroadRoot, "allow-broad-root", false, "index a root that is / or your home folder (refused by default)")
}

// RootsOrHere is the roots given, or the current folder.
func (f Flags) RootsOrHere() []string {
	if len(f.Roots) == 0 {
		return []string{"."}
	}
	return f.Roots
}

// Options are the index options of the flags, with the process's runtime
// tuner (the commands own the process).
func (f Flags) Options() index.Options {
	return index.Options{Roots: f.RootsOrHere(), CacheDir: f.Cache, MaxFileBytes: f.MaxFileBytes,
		MaxFiles: f.MaxFiles, MaxTotalBytes: f.MaxTotalBytes, AllowBroadRoots: f.AllowBroadRoot,
		Runtime: memtune.Process}
}

// CheckBroadRoots refuses a root that is / or the home folder unless
// --allow-broad-root says so: a command line has no open buffers to fall
// back on (the server answers from them instead).
func (f Flags) CheckBroadRoots(roots []string) error {
	if f.AllowBroadRoot {
		return nil
	}
	for _, dir := range roots {
		if why := index.BroadRoot(dir); why != "" {
			abs, _ := filepath.Abs(dir)
			return fmt.Errorf("not indexing %s: %s. Run askls in a project folder (or pass --root DIR), or pass --allow-broad-root to index it anyway", abs, why)
		}
	}
	return nil
}
