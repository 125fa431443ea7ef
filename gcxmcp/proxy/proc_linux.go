package proxy

import "syscall"

// parentDeathSignal has the kernel send the server SIGTERM when the proxy
// dies, even by SIGKILL, which the proxy cannot catch. It reaches the
// server alone, not its children (the watchdog [WatchGroup] reaches them),
// and it fires when the thread that started the server ends, not the
// process: startServer keeps that thread for the session.
func parentDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGTERM }
