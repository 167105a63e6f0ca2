//go:build !linux

package memtune

// HugeHeap does nothing here: see hugeheap_linux.go.
func HugeHeap(n int) {}
