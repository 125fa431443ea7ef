package proxy

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// A group whose processes have all ended is gone, though its members are
// not reaped yet (an init that reaps late): the proxy does not wait out
// the grace for zombies. A running member keeps it running.
func TestGroupOfZombiesIsGone(t *testing.T) {
	defer func(grace time.Duration) { ShutdownGrace = grace }(ShutdownGrace)
	ShutdownGrace = 30 * time.Second
	cmd := exec.Command("sleep", "300")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	if !groupRunning(pgid) {
		t.Fatal("a group with a sleeping member is not running")
	}
	// Not waited for yet: once killed it stays a zombie, a member of its
	// group, until this test reaps it.
	syscall.Kill(pgid, syscall.SIGKILL)
	defer cmd.Wait()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pgid))
		if fields := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:]); len(fields) > 0 && string(fields[0]) == "Z" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the killed process did not become a zombie")
		}
	}
	if syscall.Kill(-pgid, 0) != nil {
		t.Fatal("the kernel no longer counts the zombie in its group: nothing to test")
	}
	start := time.Now()
	stopGroup(pgid)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("stopping a group of zombies took %v", d)
	}
}
