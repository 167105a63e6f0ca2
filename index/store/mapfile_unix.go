//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package store

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// mapFile maps the file at path read-only: the symbol table's file and
// the manifest. mapped is false when it was read onto the heap instead:
// an empty file (which cannot be mapped) or a failed mmap. populate, when
// set, says from the file's info whether to ask the kernel to map every
// page at once (one call instead of a fault per few pages): a file that
// is about to be read whole. info is the file's, as opened.
func mapFile(path string, populate func(fs.FileInfo) bool) (data []byte, mapped bool, info fs.FileInfo, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, nil, err
	}
	size := fi.Size()
	if size <= 0 || size != int64(int(size)) {
		data, err := io.ReadAll(f)
		return data, false, fi, err
	}
	flags := unix.MAP_SHARED | mapPopulate(populate != nil && populate(fi))
	data, err = unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, flags)
	if err != nil {
		data, err := io.ReadAll(f)
		return data, false, fi, err
	}
	return data, true, fi, nil
}

// fileNumber is the inode number of the file of info, or 0.
func fileNumber(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

// unmapFile unmaps what mapFile mapped.
func unmapFile(data []byte) {
	if err := unix.Munmap(data); err != nil {
		panic(fmt.Sprintf("store: munmap: %v", err))
	}
}

// dropPages tells the kernel that a mapped file's pages need not stay in
// this process: its checks read them all, later reads a few. They stay in
// the page cache; the next access maps them again.
func dropPages(data []byte) {
	unix.Madvise(data, unix.MADV_DONTNEED)
}
