package thread

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// holdEnv makes the test binary a process that takes a thread's lock,
// says so on stdout and waits to be killed: "CACHE\tID".
const holdEnv = "ASKLS_THREAD_TEST_HOLD"

func init() {
	if spec := os.Getenv(holdEnv); spec != "" {
		os.Exit(holdLock(spec))
	}
}

func holdLock(spec string) int {
	cache, id, _ := strings.Cut(spec, "\t")
	s, err := Open(Options{CacheDir: cache, Workspace: []string{"/ws/a"}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := s.Lock(context.Background(), id); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("locked")
	select {} // until killed
}

// TestLockOfAKilledProcessIsReleased: a process killed (kill -9) while it
// holds a thread's lock leaves nothing that blocks the next follow-up: the
// system releases the lock with the process.
func TestLockOfAKilledProcessIsReleased(t *testing.T) {
	cache := t.TempDir()
	s := testStore(t, Options{CacheDir: cache})
	th := s.New()
	if err := s.Save(th); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holdEnv+"="+cache+"\t"+th.ID)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "locked\n" {
		cmd.Process.Kill()
		t.Fatalf("the child did not take the lock: %q %v", line, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Lock(ctx, th.ID); err == nil {
		t.Fatal("the lock the child holds was taken")
	}
	cmd.Process.Kill() // SIGKILL: nothing of the child runs after it
	cmd.Wait()
	// The lock is free once the child is gone; the limit only stops a hang.
	ctx, cancel = context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	unlock, err := s.Lock(ctx, th.ID)
	if err != nil {
		t.Fatalf("the lock of a killed process: %v", err)
	}
	unlock()
}
