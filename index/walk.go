package index

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// walkEntry is one candidate file found by the walk.
type walkEntry struct {
	rel   string // slash path relative to the root
	size  int64
	mtime int64 // UnixNano
}

// walker lists the files of one root that may enter the index.
type walker struct {
	root          *root
	maxBytes      int64
	includeVendor bool
	skipDirs      map[string]bool // absolute folders never entered (the cache)
	files         []walkEntry
	skipped       map[string]int

	// What the ignore rules kept out: per rule, the files and folders it
	// excluded (a folder counts once; it is not entered), and how many of
	// them sit directly under the root, out of rootEntries.
	excluded    map[*rule]*exclusion
	rootEntries int

	// The budget (Options.MaxFiles, MaxTotalBytes; <= 0: none) and what
	// the walk has taken of it.
	maxFiles   int
	maxTotal   int64
	totalBytes int64
}

func (w *walker) skip(reason string) { w.skipped[reason]++ }

// exclusion counts what one ignore rule kept out of a walk.
type exclusion struct {
	r        *rule
	entries  int
	topLevel int
}

// ignoredBy asks the root's ignore rules about child and counts what
// they exclude.
func (w *walker) ignoredBy(chain []ruleSet, child string, isDir, top bool) bool {
	r := decide(chain, child, isDir)
	if r == nil {
		return false
	}
	if w.excluded == nil {
		w.excluded = map[*rule]*exclusion{}
	}
	ex := w.excluded[r]
	if ex == nil {
		ex = &exclusion{r: r}
		w.excluded[r] = ex
	}
	ex.entries++
	if top {
		ex.topLevel++
	}
	return true
}

func (w *walker) walk(ctx context.Context) error {
	return w.dir(ctx, "", w.root.ign.chain(""))
}

// overBudget says, once the walk has gone over its budget, by how much
// and what to do.
func (w *walker) overBudget() error {
	if w.maxFiles > 0 && len(w.files) > w.maxFiles {
		return fmt.Errorf("%w: %s has more than %d files to index (the file budget); open a project folder, add ignore rules (.asklsignore), or raise the budget (--max-files)",
			ErrOverBudget, w.root.abs, w.maxFiles)
	}
	if w.maxTotal > 0 && w.totalBytes > w.maxTotal {
		return fmt.Errorf("%w: %s has more than %d bytes to index (the byte budget); open a project folder, add ignore rules (.asklsignore), or raise the budget (--max-total-bytes)",
			ErrOverBudget, w.root.abs, w.maxTotal)
	}
	return nil
}

// dir walks folder rel, whose entries the ignore rules of chain decide.
func (w *walker) dir(ctx context.Context, rel string, chain []ruleSet) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	abs := filepath.Join(w.root.abs, filepath.FromSlash(rel))
	if w.skipDirs[abs] {
		return nil
	}
	if rel != "" && specialFSAt(abs) != "" {
		w.skip("special file system")
		return nil // /proc, /sys, ... under a root that is "/"
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		if rel == "" {
			return err
		}
		w.skip("unreadable folder")
		return nil
	}
	top := rel == ""
	for _, e := range entries {
		name := e.Name()
		child := name
		if rel != "" {
			child = rel + "/" + name
		}
		typ := e.Type()
		if top && !(typ.IsDir() && alwaysSkipped[name]) {
			w.rootEntries++
		}
		if typ&fs.ModeSymlink != 0 {
			w.symlink(chain, child, top)
			if err := w.overBudget(); err != nil {
				return err
			}
			continue
		}
		if typ.IsDir() {
			if alwaysSkipped[name] || (!w.includeVendor && vendorFolders[name]) {
				continue
			}
			if w.ignoredBy(chain, child, true, top) {
				continue
			}
			if err := w.dir(ctx, child, w.root.ign.subChain(chain, child)); err != nil {
				return err
			}
			continue
		}
		if !typ.IsRegular() {
			continue // sockets, devices, pipes
		}
		if w.ignoredBy(chain, child, false, top) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			w.skip("vanished")
			continue
		}
		w.file(child, info)
		if err := w.overBudget(); err != nil {
			return err
		}
	}
	return nil
}

// file applies the name and size filters to a regular file.
func (w *walker) file(rel string, info fs.FileInfo) {
	if isSecretName(rel) {
		w.skip("secret")
		return
	}
	if binaryExt[strings.ToLower(path.Ext(rel))] {
		w.skip("binary")
		return
	}
	if info.Size() > w.maxBytes {
		w.skip("too large")
		return
	}
	w.files = append(w.files, walkEntry{rel: rel, size: info.Size(), mtime: info.ModTime().UnixNano()})
	w.totalBytes += info.Size()
}

// symlink keeps a link to a file inside the root; links that leave the
// root, point at folders (cycles, duplicates) or at nothing are skipped.
func (w *walker) symlink(chain []ruleSet, rel string, top bool) {
	if w.ignoredBy(chain, rel, false, top) {
		return
	}
	target, err := filepath.EvalSymlinks(filepath.Join(w.root.abs, filepath.FromSlash(rel)))
	if err != nil {
		w.skip("broken symlink")
		return
	}
	if !within(w.root.real, target) {
		w.skip("symlink out of root")
		return
	}
	if isSecretName(filepath.ToSlash(target)) {
		w.skip("secret") // an ordinary name for a secret file
		return
	}
	info, err := os.Stat(target)
	if err != nil {
		w.skip("broken symlink")
		return
	}
	if info.IsDir() {
		w.skip("symlink to folder")
		return
	}
	if !info.Mode().IsRegular() {
		return
	}
	w.file(rel, info)
}

// within reports whether p is dir or below it (both cleaned absolute paths).
func within(dir, p string) bool {
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}
