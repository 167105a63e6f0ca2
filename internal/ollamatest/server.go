package ollamatest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Version is the Ollama server version the harness runs (the last one whose
// module builds here; see .ci/install.d/ollama.sh).
const Version = "0.6.5"

// ErrNoBinary means no Ollama binary was found.
var ErrNoBinary = errors.New("no ollama binary: run `bash .ci/install.d/ollama.sh` (builds ollama " + Version +
	" into ~/.cache/askls-ci/bin), set ASKLS_OLLAMA_BIN, or set ASKLS_OLLAMA_BUILD=1 to build it from the test")

// Binary finds the Ollama server: $ASKLS_OLLAMA_BIN, then the CI cache
// ($ASKLS_OLLAMA_BIN_DIR, ~/.cache/askls-ci/bin, /root/.cache/askls-ci/bin),
// then ollama on PATH.
func Binary() (string, error) {
	if p := os.Getenv("ASKLS_OLLAMA_BIN"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("ASKLS_OLLAMA_BIN: %w", err)
		}
		return p, nil
	}
	var dirs []string
	if d := os.Getenv("ASKLS_OLLAMA_BIN_DIR"); d != "" {
		dirs = append(dirs, d)
	}
	if h, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(h, ".cache", "askls-ci", "bin"))
	}
	dirs = append(dirs, "/root/.cache/askls-ci/bin")
	for _, d := range dirs {
		p := filepath.Join(d, "ollama")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath("ollama"); err == nil {
		return p, nil
	}
	return "", ErrNoBinary
}

// BuildBinary builds ollama Version into the CI cache folder with
// `go install` (CGO; needs g++, nlohmann-json3-dev and libstb-dev, which
// .ci/install.d/ollama.sh installs) and returns its path. Start calls it
// when no binary is found and ASKLS_OLLAMA_BUILD=1. It takes minutes cold.
func BuildBinary() (string, error) {
	buildOnce.Do(func() { builtPath, buildErr = buildBinary() })
	return builtPath, buildErr
}

var (
	buildOnce sync.Once
	builtPath string
	buildErr  error
)

func buildBinary() (string, error) {
	dir := os.Getenv("ASKLS_OLLAMA_BIN_DIR")
	if dir == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("ollamatest: %w", err)
		}
		dir = filepath.Join(h, ".cache", "askls-ci", "bin")
	}
	cmd := exec.Command("go", "install",
		"-ldflags", "-s -w -X github.com/ollama/ollama/version.Version="+Version,
		"github.com/ollama/ollama@v"+Version)
	cmd.Dir = os.TempDir() // outside askls's module: its go.mod is not read
	cmd.Env = append(os.Environ(), "GOBIN="+dir, "CGO_ENABLED=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("ollamatest: building ollama %s (install g++ nlohmann-json3-dev libstb-dev, or run .ci/install.d/ollama.sh): %w\n%s", Version, err, out)
	}
	return filepath.Join(dir, "ollama"), nil
}

// Required reports whether CI asked for every optional part
// (ASKLS_REQUIRE_ALL=1): then a missing binary fails the test.
func Required() bool { return os.Getenv("ASKLS_REQUIRE_ALL") == "1" }

// Server is a running Ollama server on loopback.
type Server struct {
	// URL is the server's base URL, http://127.0.0.1:PORT; Host is
	// 127.0.0.1:PORT (what OLLAMA_HOST takes).
	URL, Host string
	bin       string
	dir       string
	env       []string
	cmd       *exec.Cmd
	exited    chan struct{}
	log       *lockedBuffer
}

// Start starts a server in a fresh temporary directory, waits until it
// answers /api/version, and stops it when the test ends. Without a binary
// (and without ASKLS_OLLAMA_BUILD=1 to build one) it skips the test, or
// fails it when Required.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := Binary()
	if err != nil && os.Getenv("ASKLS_OLLAMA_BUILD") == "1" {
		bin, err = BuildBinary()
	}
	if err != nil {
		if Required() {
			t.Fatalf("ASKLS_REQUIRE_ALL=1 and %v", err)
		}
		t.Skipf("skipping the real-Ollama test: %v", err)
	}
	s, err := StartBinary(bin, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Errorf("stopping ollama: %v", err)
		}
		if t.Failed() {
			t.Logf("ollama server log (tail):\n%s", s.LogTail(4000))
		}
	})
	return s
}

// StartBinary starts bin with HOME and OLLAMA_MODELS under dir.
func StartBinary(bin, dir string) (*Server, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ { // the free port may be taken meanwhile
		s, err := startOnce(bin, dir)
		if err == nil {
			return s, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

func startOnce(bin, dir string) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	home := filepath.Join(dir, "home")
	models := filepath.Join(dir, "models")
	for _, d := range []string{home, models} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("ollamatest: %w", err)
		}
	}
	host := fmt.Sprintf("127.0.0.1:%d", port)
	env := []string{
		"HOME=" + home,
		"PATH=" + os.Getenv("PATH"),
		"OLLAMA_HOST=" + host,
		"OLLAMA_MODELS=" + models,
		"OLLAMA_NUM_PARALLEL=1",
		"OLLAMA_MAX_LOADED_MODELS=2",
		"OLLAMA_KEEP_ALIVE=10m",
		"OLLAMA_NOPRUNE=1",
		"OLLAMA_DEBUG=" + os.Getenv("ASKLS_OLLAMA_DEBUG"),
	}
	s := &Server{
		URL: "http://" + host, Host: host, bin: bin, dir: dir, env: env,
		exited: make(chan struct{}), log: &lockedBuffer{},
	}
	s.cmd = exec.Command(bin, "serve")
	s.cmd.Env = env
	s.cmd.Dir = dir
	s.cmd.Stdout = s.log
	s.cmd.Stderr = s.log
	// Its own process group where the platform has them, so that a runner
	// left behind can be ended by this server's PID.
	ownProcessGroup(s.cmd)
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("ollamatest: starting %s: %w", bin, err)
	}
	go func() { s.cmd.Wait(); close(s.exited) }()

	deadline := time.Now().Add(30 * time.Second)
	for {
		v, err := s.Version()
		if err == nil {
			if !strings.HasPrefix(v, Version) {
				// Still usable, but say which server answered.
				fmt.Fprintf(s.log, "ollamatest: server version %s, expected %s\n", v, Version)
			}
			return s, nil
		}
		select {
		case <-s.exited:
			return nil, fmt.Errorf("ollamatest: ollama serve exited: %s", s.LogTail(2000))
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("ollamatest: ollama did not answer /api/version in 30s: %v\n%s", err, s.LogTail(2000))
		}
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("ollamatest: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Version asks the server its version.
func (s *Server) Version() (string, error) {
	c := http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get(s.URL + "/api/version")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var v struct{ Version string }
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		return "", fmt.Errorf("ollamatest: /api/version: %w", err)
	}
	return v.Version, nil
}

// Stop ends the server by its PID (SIGTERM, then SIGKILL to its process
// group after 10 s) and waits for it.
func (s *Server) Stop() error {
	if s.cmd == nil || s.cmd.Process == nil {
		return nil
	}
	select {
	case <-s.exited:
		return nil
	default:
	}
	pid := s.cmd.Process.Pid
	terminate(s.cmd.Process)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		killGroup(s.cmd.Process)
		<-s.exited
		return fmt.Errorf("ollamatest: ollama (pid %d) ignored SIGTERM for 10s; killed", pid)
	}
	// Runners are children in the same group; end any left behind.
	killGroup(s.cmd.Process)
	return nil
}

// LogTail is the last n bytes of the server's output.
func (s *Server) LogTail(n int) string {
	b := s.log.Bytes()
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// Env is the environment for running the ollama CLI (or askls) against
// this server: OLLAMA_HOST and the temporary HOME.
func (s *Server) Env() []string { return append([]string(nil), s.env...) }

// Create writes m into a temporary directory and creates it as name with
// `ollama create NAME -f Modelfile`, the way a user would.
func (s *Server) Create(name string, m *Model) error {
	dir, err := os.MkdirTemp(s.dir, "model-")
	if err != nil {
		return fmt.Errorf("ollamatest: %w", err)
	}
	mf, err := m.WriteFiles(dir)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.bin, "create", name, "-f", mf)
	cmd.Env = s.env
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("ollamatest: ollama create %s: %w\n%s", name, err, out)
	}
	return nil
}

// MustCreate is Create that fails the test on error.
func (s *Server) MustCreate(t testing.TB, name string, m *Model) {
	t.Helper()
	if err := s.Create(name, m); err != nil {
		t.Fatal(err)
	}
}

// Post sends a JSON body to path and returns the status and the body.
func (s *Server) Post(ctx context.Context, path string, body any) (int, []byte, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return 0, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", s.URL+path, bytes.NewReader(b))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

// Lines splits an NDJSON body into its JSON objects.
func Lines(body []byte) ([]map[string]any, error) {
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, fmt.Errorf("ollamatest: NDJSON line %q: %w", line, err)
		}
		out = append(out, m)
	}
	return out, sc.Err()
}

// lockedBuffer is a bytes.Buffer safe for the server's two output streams.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]byte(nil), l.b.Bytes()...)
}
