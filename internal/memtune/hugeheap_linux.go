package memtune

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePageBytes is the size of a transparent huge page on Linux with
// 4 KiB pages.
const hugePageBytes = 2 << 20

// HugeHeap readies the heap of a short-lived command that is about to
// allocate about n bytes (askls index and askls search: a warm start on
// the Linux tree decodes its manifest and walks its 78,000 files into
// 26 MB of heap, with one collection): n bytes of heap are allocated, advised onto huge pages
// (MADV_HUGEPAGE) before any is touched, and freed, so that the
// allocations that follow reuse them and fault in 2 MiB at a time. Where
// transparent huge pages are on "madvise" (Ubuntu's and Debian's
// default), the Go heap otherwise gets 4 KiB pages, each faulted in on
// first touch: on some virtual machines that is 17–20 µs a page (a warm
// `askls index` of the kernel: 5,300 faults, half of them after this).
// The advice changes only how pages are backed. It costs one collection
// of a heap that is still small. Not for a long-lived process: the
// kernel's khugepaged may fill huge pages the heap uses sparsely.
func HugeHeap(n int) {
	b := make([]byte, n) // fresh from the system: not zeroed, not touched
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	skip := -start & (hugePageBytes - 1)
	if uintptr(n) >= skip+hugePageBytes {
		whole := (uintptr(n) - skip) &^ (hugePageBytes - 1)
		unix.Madvise(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), skip)), whole), unix.MADV_HUGEPAGE)
	}
	runtime.KeepAlive(b)
	b = nil
	runtime.GC() // frees b's pages for the allocations to come
}
