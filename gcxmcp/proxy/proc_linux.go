package proxy

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// parentDeathSignal has the kernel send the server SIGTERM when the proxy
// dies, even by SIGKILL, which the proxy cannot catch. It reaches the
// server alone, not its children (the watchdog [WatchGroup] reaches them),
// and it fires when the thread that started the server ends, not the
// process: startServer keeps that thread for the session.
func parentDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGTERM }

// groupRunning reports whether a process of the group pgid still runs.
// The kernel counts a process that has ended as a member until its parent
// reaps it, and the parent of the server's orphaned children is init, or
// in a container whatever runs as pid 1, which may reap late or never:
// the proxy would wait out ShutdownGrace for processes that have ended. So
// when the group answers, /proc says whether a member is more than a
// zombie; one pass reads each process's stat once.
func groupRunning(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	dir, err := os.Open("/proc")
	if err != nil {
		return true
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return true
	}
	want := []byte(strconv.Itoa(pgid))
	for _, name := range names {
		if name == "" || name[0] < '0' || name[0] > '9' {
			continue
		}
		stat, err := os.ReadFile("/proc/" + name + "/stat")
		if err != nil {
			continue // it ended meanwhile
		}
		// pid (comm) state ppid pgrp ...: comm may hold anything but
		// its closing parenthesis is the last.
		fields := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
		if len(fields) >= 3 && bytes.Equal(fields[2], want) && !bytes.Equal(fields[0], []byte("Z")) {
			return true
		}
	}
	return false
}
