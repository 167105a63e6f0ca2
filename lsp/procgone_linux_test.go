package lsp

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// A killed server that no one reaped (a zombie) counts as gone: its
// answer folder is removed by the next server.
func TestProcessGoneCountsAZombie(t *testing.T) {
	t.Parallel()
	if processGone(os.Getpid()) {
		t.Fatal("processGone(own pid) = true")
	}
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skipf("no sleep to start: %v", err)
	}
	pid := cmd.Process.Pid
	if processGone(pid) {
		t.Fatal("processGone(a running child) = true")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	// Not reaped yet: the child is a zombie until Wait.
	for !isZombie(pid) {
		if _, err := os.Stat("/proc/self/stat"); err != nil {
			t.Skip("no /proc")
		}
		time.Sleep(time.Millisecond)
	}
	if !processGone(pid) {
		t.Error("processGone(a zombie) = false")
	}
	_ = cmd.Wait()
}
