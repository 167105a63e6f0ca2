package index

import (
	"path/filepath"
	"syscall"
)

// readSpanRaw reads n bytes at off of a file under r when it is still a
// regular file (not a symlink) with the size and mtime it had when
// indexed. It uses four system calls and no os.File, which matters when a
// search reads the chunks of a hundred files to rerank them.
func readSpanRaw(r *root, rel string, size, mtime int64, off, n int) ([]byte, bool) {
	if off < 0 || n < 0 || int64(off)+int64(n) > size {
		return nil, false // an entry that does not fit its file
	}
	abs := filepath.Join(r.abs, filepath.FromSlash(rel))
	var fd int
	var err error
	for {
		fd, err = syscall.Open(abs, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG ||
		st.Size != size || st.Mtim.Nano() != mtime {
		return nil, false
	}
	b := make([]byte, n)
	for got := 0; got < n; {
		m, err := syscall.Pread(fd, b[got:], int64(off+got))
		if err == syscall.EINTR {
			continue
		}
		if err != nil || m == 0 {
			return nil, false
		}
		got += m
	}
	return b, true
}
