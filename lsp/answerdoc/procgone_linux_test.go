package answerdoc

import (
	"os"
	"os/exec"
	"testing"

	"golang.org/x/sys/unix"
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
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	// Wait until the child has exited, without reaping it (WNOWAIT): it
	// is a zombie until cmd.Wait.
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != nil {
		t.Fatalf("waitid: %v", err)
	}
	if !isZombie(pid) {
		t.Fatal("an exited child that was not reaped is no zombie")
	}
	if !processGone(pid) {
		t.Error("processGone(a zombie) = false")
	}
	_ = cmd.Wait()
}
