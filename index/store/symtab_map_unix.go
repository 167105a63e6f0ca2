//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package store

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// mapSymtab maps the table file at path read-only. mapped is false when
// it was read onto the heap instead: an empty file (which cannot be
// mapped) or a failed mmap.
func mapSymtab(path string) (data []byte, mapped bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	size := fi.Size()
	if size <= 0 || size != int64(int(size)) {
		data, err := os.ReadFile(path)
		return data, false, err
	}
	data, err = unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		data, err := os.ReadFile(path)
		return data, false, err
	}
	return data, true, nil
}

// unmapSymtab unmaps what mapSymtab mapped.
func unmapSymtab(data []byte) {
	if err := unix.Munmap(data); err != nil {
		panic(fmt.Sprintf("store: munmap of the symbol table: %v", err))
	}
}

// dropSymtabPages tells the kernel that the mapped table's pages need not
// stay in this process: the checks read them all, a lookup reads a few.
// They stay in the page cache; the next access maps them again.
func dropSymtabPages(data []byte) {
	unix.Madvise(data, unix.MADV_DONTNEED)
}
