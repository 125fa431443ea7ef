//go:build unix

package proxy_test

import (
	"net"
	"strconv"
	"syscall"
	"testing"
)

// refusedAddr returns a loopback address that refuses connections for the
// whole test: a TCP socket bound to it and never listening holds the port,
// so no listener of this or another process can take it meanwhile (a
// closed listener's port can be handed out again at once).
func refusedAddr(t *testing.T) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(sa.(*syscall.SockaddrInet4).Port))
}
