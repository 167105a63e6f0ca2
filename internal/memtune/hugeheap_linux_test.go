package memtune

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestHugeHeapLeavesAdvisedPagesForTheNextAllocation: a large allocation
// made after HugeHeap lands in heap advised onto huge pages (its
// mapping's VmFlags say "hg"), and reads as zeros.
func TestHugeHeapLeavesAdvisedPagesForTheNextAllocation(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("no transparent huge pages here")
	}
	HugeHeap(32 << 20)
	s := make([]byte, 8<<20)
	for _, c := range s[:4096] {
		if c != 0 {
			t.Fatal("the allocation after HugeHeap is not zero")
		}
	}
	mid := uintptr(unsafe.Pointer(&s[len(s)/2]))
	if flags := vmFlags(t, mid); !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the allocation after HugeHeap lies in a mapping with VmFlags %q, want hg", flags)
	}
}

// vmFlags are the VmFlags of the mapping holding addr (/proc/self/smaps).
func vmFlags(t *testing.T, addr uintptr) string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if from, to, ok := strings.Cut(fields[0], "-"); ok {
			lo, err1 := strconv.ParseUint(from, 16, 64)
			hi, err2 := strconv.ParseUint(to, 16, 64)
			in = err1 == nil && err2 == nil && uint64(addr) >= lo && uint64(addr) < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:"))
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return ""
}
