//go:build !linux

package index

// readSpan reads n bytes at off of a file under r (see readRange).
func readSpan(r *root, rel string, size, mtime int64, off, n int) ([]byte, bool) {
	return readRange(r, rel, size, mtime, off, n)
}
