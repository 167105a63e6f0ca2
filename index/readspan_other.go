//go:build !linux

package index

import (
	"os"
	"path/filepath"
)

// readSpanRaw reads n bytes at off of a file under r, if the file still has
// the size and mtime it had when indexed and is not a symlink. The Linux
// build does the same with four system calls and no os.File.
func readSpanRaw(r *root, rel string, size, mtime int64, off, n int) ([]byte, bool) {
	if off < 0 || n < 0 || int64(off)+int64(n) > size {
		return nil, false // an entry that does not fit its file
	}
	abs := filepath.Join(r.abs, filepath.FromSlash(rel))
	f, err := os.Open(abs)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || info.Size() != size || info.ModTime().UnixNano() != mtime || !info.Mode().IsRegular() {
		return nil, false
	}
	if info, err := os.Lstat(abs); err != nil || info.Mode()&os.ModeSymlink != 0 {
		// A symlink: let the confined path (Content) decide.
		return nil, false
	}
	b := make([]byte, n)
	if _, err := f.ReadAt(b, int64(off)); err != nil {
		return nil, false
	}
	return b, true
}
