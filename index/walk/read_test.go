//go:build unix

package walk

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// endless is a reader that never ends, like a file that lies about its
// size (0 for /proc files) or grows as it is read.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func TestReadUpToStopsAtTheLimitWhateverTheClaimedSize(t *testing.T) {
	const max = 1 << 20
	for _, claimed := range []int64{0, 10, max, 1 << 40, -1} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := readUpTo(endless{}, claimed, max)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("claimed size %d: err = %v, want errTooLarge", claimed, err)
		}
		// Generous: the buffer grows by doubling up to max+1.
		if got := after.TotalAlloc - before.TotalAlloc; got > 4*max {
			t.Errorf("claimed size %d: %d bytes allocated for a %d-byte limit", claimed, got, max)
		}
	}
	data, err := readUpTo(strings.NewReader("hello"), 1<<30, max)
	if err != nil || string(data) != "hello" {
		t.Errorf("a short file: %q, %v", data, err)
	}
	data, err = readUpTo(strings.NewReader(strings.Repeat("a", max)), 3, max)
	if err != nil || len(data) != max {
		t.Errorf("a file of exactly the limit: %d bytes, %v", len(data), err)
	}
}

func TestReadCappedRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	// A FIFO with no writer: opening it for reading must not block.
	if _, _, err := ReadCapped(fifo, 1<<20); !errors.Is(err, ErrNotRegular) {
		t.Errorf("FIFO: err = %v, want errNotRegular", err)
	}
	if _, _, err := ReadCapped("/dev/zero", 1<<20); err == nil {
		t.Errorf("/dev/zero was read")
	}
	if _, err := os.Stat("/proc/self/status"); err == nil && runtime.GOOS == "linux" {
		if _, _, err := ReadCapped("/proc/self/status", 1<<20); !errors.Is(err, ErrSpecialFS) {
			t.Errorf("/proc/self/status: err = %v, want errSpecialFS", err)
		}
	}
	big := filepath.Join(dir, "big.txt")
	os.WriteFile(big, []byte(strings.Repeat("a\n", 600)), 0o644)
	if _, _, err := ReadCapped(big, 1000); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a 1,200-byte file under a 1,000-byte limit: err = %v", err)
	}
}
