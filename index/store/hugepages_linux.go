package store

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePageBytes is the size of a transparent huge page on Linux with
// 4 KiB pages (amd64, most arm64); where it is another, the advice
// below still holds and only helps less.
const hugePageBytes = 2 << 20

// adviseHugePages asks that the memory of s, a large allocation not yet
// written, be backed by huge pages where it is first touched. Where
// transparent huge pages are on "madvise" (Ubuntu's and Debian's
// default), the Go heap gets 4 KiB pages, each faulted in on first
// touch: on some virtual machines that is 17–20 µs a page, against one
// fault per 2 MiB with the advice (a kernel's manifest decodes into
// 22 MB of fresh arrays: 5,600 faults). The advice covers the 2 MiB
// blocks s lies in, its first and last too: the heap beyond s is either
// in use already (its block then stays in small pages, as without the
// advice) or not yet touched (later allocations there get huge pages).
// It changes only how pages are backed, never what they hold; a failure
// is ignored.
func adviseHugePages[T any](s []T) {
	if len(s) == 0 {
		return
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	end := start + uintptr(len(s))*unsafe.Sizeof(s[0])
	if end-start < hugePageBytes {
		return // a small allocation: its pages are likely in use already
	}
	// The blocks reach beyond s, so they are given to the system call as
	// addresses: a pointer outside s's allocation is not a valid Go
	// pointer (the race detector's pointer checks stop on one).
	first := start &^ (hugePageBytes - 1)
	n := (end+hugePageBytes-1)&^(hugePageBytes-1) - first
	unix.Syscall(unix.SYS_MADVISE, first, n, unix.MADV_HUGEPAGE)
	runtime.KeepAlive(s)
}
