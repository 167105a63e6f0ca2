package store

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestAdviseHugePagesMarksTheBlocksItLiesIn: the 2 MiB blocks a large
// allocation lies in, its first and last too, are advised (their
// mapping's VmFlags say "hg"); an allocation under a block, or none, is
// left alone; what the memory holds is unchanged.
func TestAdviseHugePagesMarksTheBlocksItLiesIn(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("no transparent huge pages here")
	}
	adviseHugePages([]byte(nil))
	adviseHugePages(make([]byte, 100))
	s := make([]uint64, 5<<20/8)
	s[len(s)-1] = 7
	adviseHugePages(s)
	if s[0] != 0 || s[len(s)-1] != 7 {
		t.Errorf("the advice changed what the memory holds")
	}
	for _, p := range []*uint64{&s[0], &s[len(s)/2], &s[len(s)-1]} {
		if flags := vmFlags(t, uintptr(unsafe.Pointer(p))); !strings.Contains(" "+flags+" ", " hg ") {
			t.Errorf("the mapping of %p has VmFlags %q, want hg", p, flags)
		}
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
