// End-to-end tests through gocql (Debian's golang-github-gocql-gocql-dev
// 1.3.2), run with `go test` in GOPATH mode: tests/integration/go/run.sh.
//
// TestMain starts one `sibyl start` ($SIBYL_BIN, or <repo>/build/sibyl) on a
// free loopback port with a temporary data directory, waits for Cassandra's
// ready line, runs the tests, then stops it with SIGTERM and requires exit
// code 0 within 5 seconds.
//
// Where Sibyl is known to answer differently from Apache Cassandra 4.1, the
// test is written for Cassandra and skipped with "sibyl differs: ...".
package sibyl_test

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gocql/gocql"
)

const (
	startupTimeout = 30 * time.Second
	stopTimeout    = 5 * time.Second
	numTokens      = 8
	clusterName    = "Go Cluster"
)

var readyLine = regexp.MustCompile(`Starting listening for CQL clients on (\S+):(\d+)`)

// The server every test talks to (TestMain starts it).
var server *sibylServer

// sibylBinary is $SIBYL_BIN, or build/sibyl of the repository this folder
// sits in (go test runs in the package's folder: tests/integration/go).
func sibylBinary() (string, error) {
	path := os.Getenv("SIBYL_BIN")
	if path == "" {
		path = filepath.Join("..", "..", "..", "build", "sibyl")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if info, err := os.Stat(abs); err != nil || info.IsDir() || info.Mode()&0o111 == 0 {
		return "", fmt.Errorf("no sibyl binary at %s: build it (scripts/build.sh) or set SIBYL_BIN", abs)
	}
	return abs, nil
}

// freePort is a loopback port that was free a moment ago.
func freePort() (int, error) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer listener.Close()
	return listener.Addr().(*net.TCPAddr).Port, nil
}

// lockedBuffer collects the server's stdout and stderr.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// sibylServer is one `sibyl start` process with its own port and data dir.
type sibylServer struct {
	workdir string
	port    int
	cmd     *exec.Cmd
	output  lockedBuffer
	done    chan struct{} // closed when the process has exited
	waitErr error
}

func startServer(extraArgs ...string) (*sibylServer, error) {
	binary, err := sibylBinary()
	if err != nil {
		return nil, err
	}
	workdir, err := os.MkdirTemp("", "sibyl-go-")
	if err != nil {
		return nil, err
	}
	s := &sibylServer{workdir: workdir}
	// The port can be taken between the probe and the server's bind: a start
	// that fails with "in use" is retried on a new port.
	for attempt := 0; attempt < 3; attempt++ {
		if err = s.spawn(binary, extraArgs); err != nil {
			break
		}
		if err = s.waitReady(); err == nil {
			return s, nil
		}
		s.kill()
		if !strings.Contains(s.output.String(), "in use") {
			break
		}
	}
	output := s.output.String()
	s.cleanup()
	return nil, fmt.Errorf("sibyl did not start: %v\n--- output ---\n%s", err, output)
}

func (s *sibylServer) spawn(binary string, extraArgs []string) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	s.port = port
	args := append([]string{"start",
		"--data-dir", filepath.Join(s.workdir, "data"),
		"--listen-address", "127.0.0.1",
		"--native-transport-port", strconv.Itoa(port), "--prometheus-port", "0"}, extraArgs...)
	s.cmd = exec.Command(binary, args...)
	s.cmd.Dir = s.workdir
	s.cmd.Stdout = &s.output
	s.cmd.Stderr = &s.output
	// If the test binary dies, so does the server.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := s.cmd.Start(); err != nil {
		return err
	}
	s.done = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) {
		s.waitErr = cmd.Wait()
		close(done)
	}(s.cmd, s.done)
	return nil
}

func (s *sibylServer) waitReady() error {
	deadline := time.Now().Add(startupTimeout)
	for time.Now().Before(deadline) {
		if match := readyLine.FindStringSubmatch(s.output.String()); match != nil {
			if match[2] != strconv.Itoa(s.port) {
				return fmt.Errorf("ready line names port %s, expected %d", match[2], s.port)
			}
			return nil
		}
		select {
		case <-s.done:
			return fmt.Errorf("exited before becoming ready: %v", s.waitErr)
		case <-time.After(20 * time.Millisecond):
		}
	}
	return fmt.Errorf("no ready line within %v", startupTimeout)
}

func (s *sibylServer) alive() bool {
	if s == nil || s.done == nil {
		return false
	}
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// stop sends SIGTERM and returns the exit code; an error if it takes over 5 s
// or the process ends by a signal.
func (s *sibylServer) stop() (int, error) {
	if s.alive() {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
	}
	select {
	case <-s.done:
	case <-time.After(stopTimeout):
		s.kill()
		return -1, fmt.Errorf("sibyl did not exit within %v of SIGTERM", stopTimeout)
	}
	state := s.cmd.ProcessState
	if status, ok := state.Sys().(syscall.WaitStatus); ok && status.Signaled() {
		return -1, fmt.Errorf("sibyl ended by signal %v", status.Signal())
	}
	return state.ExitCode(), nil
}

func (s *sibylServer) kill() {
	if s.alive() {
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

func (s *sibylServer) cleanup() {
	s.kill()
	_ = os.RemoveAll(s.workdir)
}

func TestMain(m *testing.M) {
	var err error
	server, err = startServer("--num-tokens", strconv.Itoa(numTokens), "--cluster-name", clusterName)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	alive := server.alive()
	exit, err := server.stop()
	switch {
	case !alive:
		fmt.Fprintf(os.Stderr, "sibyl died during the tests\n--- output ---\n%s", server.output.String())
		code = 1
	case err != nil || exit != 0:
		fmt.Fprintf(os.Stderr, "sibyl did not stop cleanly on SIGTERM (exit code %d, %v)\n--- output ---\n%s",
			exit, err, server.output.String())
		code = 1
	case code != 0 && os.Getenv("SIBYL_GO_SHOW_LOG") != "":
		fmt.Fprintf(os.Stderr, "--- sibyl output ---\n%s", server.output.String())
	}
	server.cleanup()
	os.Exit(code)
}

// driverLog records what gocql logs (it logs what went wrong: failed dials,
// schema or topology reads that failed, ...).
type driverLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *driverLog) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, strings.TrimRight(line, "\n"))
}

func (l *driverLog) Print(v ...interface{})                 { l.add(fmt.Sprint(v...)) }
func (l *driverLog) Printf(format string, v ...interface{}) { l.add(fmt.Sprintf(format, v...)) }
func (l *driverLog) Println(v ...interface{})               { l.add(fmt.Sprintln(v...)) }

func (l *driverLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

// newCluster is a gocql configuration for the shared server; timeouts are
// generous so that the sanitizer build passes too.
func newCluster(log *driverLog) *gocql.ClusterConfig {
	cluster := gocql.NewCluster("127.0.0.1")
	cluster.Port = server.port
	cluster.ProtoVersion = 4
	cluster.Timeout = 10 * time.Second
	cluster.ConnectTimeout = 10 * time.Second
	cluster.Consistency = gocql.One
	cluster.NumConns = 1
	cluster.Logger = log
	return cluster
}

// connect opens a session with the given configuration, closed at the end of
// the test; the driver must have logged nothing by then.
func connect(t *testing.T, configure func(*gocql.ClusterConfig)) *gocql.Session {
	t.Helper()
	log := &driverLog{}
	cluster := newCluster(log)
	if configure != nil {
		configure(cluster)
	}
	session, err := cluster.CreateSession()
	if err != nil {
		t.Fatalf("cannot connect: %v (driver log: %q)%s", err, log.all(), serverNote())
	}
	t.Cleanup(func() {
		session.Close()
		if lines := log.all(); len(lines) > 0 && !t.Failed() && !t.Skipped() {
			t.Errorf("gocql logged: %q", lines)
		}
	})
	return session
}

// serverNote names the server's state when it died: then it is its fault.
func serverNote() string {
	if server.alive() {
		return ""
	}
	return "\nsibyl died:\n" + server.output.String()
}

// mustExec runs statements that must succeed.
func mustExec(t *testing.T, session *gocql.Session, statements ...string) {
	t.Helper()
	for _, statement := range statements {
		if err := session.Query(statement).Exec(); err != nil {
			t.Fatalf("%s: %v%s", statement, err, serverNote())
		}
	}
}

// createKeyspace (re)creates a keyspace with replication factor 1.
func createKeyspace(t *testing.T, session *gocql.Session, name string) {
	t.Helper()
	mustExec(t, session,
		"DROP KEYSPACE IF EXISTS "+name,
		"CREATE KEYSPACE "+name+" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
}

// requestError unwraps err into the server's error, or fails the test.
func requestError(t *testing.T, err error, statement string) gocql.RequestError {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: succeeded, expected an error", statement)
	}
	var reqErr gocql.RequestError
	if !errors.As(err, &reqErr) {
		t.Fatalf("%s: %T %v is not a gocql.RequestError%s", statement, err, err, serverNote())
	}
	return reqErr
}
