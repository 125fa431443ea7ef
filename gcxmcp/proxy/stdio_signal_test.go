//go:build unix

package proxy_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gcxwire/gcx/gcxmcp/proxy"
)

// A child the server started does not outlive the proxy: the server's
// whole process group ends with the session.
func TestStdioServerGroupEnds(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	s := startFake(t, "child", proxy.Options{}, "GCX_PROXY_FAKE_CHILD_PID="+pidFile)
	s.initialize()
	pid := readPID(t, pidFile)
	if !alive(pid) {
		t.Fatalf("the server's child %d is not running", pid)
	}
	if err := s.end(); err != nil {
		t.Error(err)
	}
	gone(t, 10*time.Second, "the server's child", pid)
}

// Whatever signal ends gcx proxy over stdio, the server and the child it
// started do not outlive it. The signals it can catch stop the server's
// process group, SIGTERM then SIGKILL after 5 seconds, and then the proxy
// exits with 128 and the signal's number, as a shell reports a process a
// signal ended. SIGKILL, which it cannot catch, leaves the work to the
// kernel (the server's parent-death signal, on Linux) and to the proxy's
// watchdog, which stops the whole group, SIGKILL after 5 seconds included:
// a stubborn child ignores SIGTERM.
func TestStdioProxyEndsOnSignal(t *testing.T) {
	gcx := built(t, "gcx")
	// Under nohup this process would hand SIGHUP on ignored, and gcx keeps
	// an ignored signal ignored, as it should: caught here instead, a
	// signal is reset to its default in the processes this test starts.
	// (Stopped in Cleanup: the cases run in parallel, after this
	// function has returned.)
	caught := make(chan os.Signal, 1)
	t.Cleanup(func() { signal.Stop(caught) })
	for _, sig := range []os.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT} {
		if signal.Ignored(sig) {
			signal.Notify(caught, sig)
		}
	}
	for _, tc := range []struct {
		sig      syscall.Signal
		stubborn bool
	}{
		{syscall.SIGHUP, false},
		{syscall.SIGINT, false},
		{syscall.SIGTERM, false},
		{syscall.SIGQUIT, false},
		{syscall.SIGKILL, false},
		{syscall.SIGTERM, true},
		{syscall.SIGKILL, true},
	} {
		name := strings.ToUpper(tc.sig.String())
		if tc.stubborn {
			name += " stubborn child"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each waits, mostly: for the grace of 5 seconds
			dir := t.TempDir()
			serverFile, childFile := filepath.Join(dir, "server"), filepath.Join(dir, "child")
			cmd := exec.Command(gcx, "proxy", "--", os.Args[0])
			cmd.Env = append(os.Environ(), "GCX_PROXY_FAKE=child", "GCX_PROXY_FAKE_PID="+serverFile, "GCX_PROXY_FAKE_CHILD_PID="+childFile)
			if tc.stubborn {
				cmd.Env = append(cmd.Env, "GCX_PROXY_FAKE_STUBBORN=1")
			}
			// A file, not a pipe: the server and the watchdog write to the
			// proxy's stderr too, and Wait would wait for them.
			stderr := &fileText{name: filepath.Join(dir, "stderr")}
			f, err := os.Create(stderr.name)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cmd.Stderr = f
			in, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			outPipe, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			answered := make(chan string, 1)
			waited := make(chan error, 1)
			go func() {
				out := bufio.NewReader(outPipe)
				line, _ := out.ReadString('\n')
				answered <- line
				io.Copy(io.Discard, out)
				waited <- cmd.Wait()
			}()
			// The proxy passes messages on once the server and its
			// watchdog have started.
			if _, err := io.WriteString(in, initialize); err != nil {
				t.Fatal(err)
			}
			select {
			case line := <-answered:
				if !strings.Contains(line, `"serverInfo"`) {
					t.Fatalf("initialize answered with %q; stderr:\n%s", line, stderr)
				}
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("no answer to initialize within 20s; stderr:\n%s", stderr)
			}
			pids := []int{readPID(t, serverFile), readPID(t, childFile)}
			defer func() {
				for _, pid := range pids {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}()
			for _, pid := range pids {
				if !alive(pid) {
					t.Fatalf("process %d of the server is not running", pid)
				}
			}
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			var exitErr *exec.ExitError
			select {
			case err := <-waited:
				if err == nil {
					t.Fatalf("the proxy exited with status 0 after %v; stderr:\n%s", tc.sig, stderr)
				}
				if !errors.As(err, &exitErr) {
					t.Fatalf("the proxy ended with %v; stderr:\n%s", err, stderr)
				}
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("the proxy did not end within 30s of %v; stderr:\n%s", tc.sig, stderr)
			}
			status := exitErr.Sys().(syscall.WaitStatus)
			if tc.sig == syscall.SIGKILL {
				if !status.Signaled() || status.Signal() != syscall.SIGKILL {
					t.Errorf("the proxy ended with %v, not by SIGKILL", exitErr)
				}
			} else if got, want := exitErr.ExitCode(), 128+int(tc.sig); got != want {
				t.Errorf("after %v the proxy exited with %v, want status %d; stderr:\n%s", tc.sig, exitErr, want, stderr)
			}
			gone(t, 15*time.Second, "the server", pids[0])
			gone(t, 15*time.Second, "the server's child", pids[1])
		})
	}
}

// The server gcx proxy starts has the signals' default actions: gcx
// ignores SIGPIPE (a closed pipe is an error it reports), and an ignored
// signal would stay ignored in every process the proxy starts.
func TestStdioServerSignalsDefault(t *testing.T) {
	own, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc to read a process's ignored signals from")
	}
	cmd := exec.Command(built(t, "gcx"), "proxy", "--", "sh", "-c", "grep SigIgn /proc/$$/status")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	ignored := func(status []byte) uint64 {
		_, mask, _ := strings.Cut(string(status), "SigIgn:")
		n, _ := strconv.ParseUint(strings.Fields(mask + " 0")[0], 16, 64)
		return n
	}
	pipe := uint64(1) << (syscall.SIGPIPE - 1)
	if ignored(own)&pipe == 0 && ignored(out)&pipe != 0 {
		t.Errorf("the server ignores SIGPIPE (%s)", strings.TrimSpace(string(out)))
	}
}

// fileText is a file's content as a test message.
type fileText struct{ name string }

func (f *fileText) String() string {
	b, _ := os.ReadFile(f.name)
	return string(b)
}

// The watchdog stops the group when its lifeline ends without a word,
// and leaves it alone when the proxy releases it with a byte.
func TestWatchGroup(t *testing.T) {
	for _, released := range []bool{false, true} {
		sleep := exec.Command("sleep", "300")
		sleep.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := sleep.Start(); err != nil {
			t.Fatal(err)
		}
		go sleep.Wait()
		pid := sleep.Process.Pid
		r, w := io.Pipe()
		done := make(chan error, 1)
		go func() { done <- proxy.WatchGroup(r, pid) }()
		if released {
			w.Write([]byte{1})
		}
		w.Close()
		err := <-done
		if released {
			if err != nil || !alive(pid) {
				t.Errorf("released, the watchdog returned %v and the group is alive: %v", err, alive(pid))
			}
			syscall.Kill(-pid, syscall.SIGKILL)
			continue
		}
		if err == nil {
			t.Error("the watchdog of a proxy that died returned nil")
		}
		gone(t, 5*time.Second, "the group's process", pid)
	}
	if err := proxy.WatchGroup(bytes.NewReader(nil), 1); err == nil {
		t.Error("a watchdog for group 1 (init's) did not refuse")
	}
}

func readPID(t *testing.T, name string) int {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return atoi(t, b)
}

func atoi(t *testing.T, b []byte) int {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// gone fails the test unless the process pid has ended within d.
func gone(t *testing.T, d time.Duration, what string, pid int) {
	t.Helper()
	deadline := time.Now().Add(d)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Errorf("%s (pid %d) outlived the proxy by %v", what, pid, d)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// alive reports whether the process runs: it exists and is no zombie
// waiting for a parent to reap it.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // no /proc: existence is all there is to know
	}
	_, after, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(after, "Z")
}
