//go:build unix

package proxy_test

import "syscall"

// setReceiveBuffer asks the kernel for a socket receive buffer of n bytes.
func setReceiveBuffer(fd uintptr, n int) {
	syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, n)
}
