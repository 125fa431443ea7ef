//go:build !unix

package proxy_test

import (
	"net"
	"testing"
)

// refusedAddr returns a loopback address nothing listens on: a closed
// listener's, which another listener may take again before the test is
// over, where unix's bound socket (refused_unix_test.go) is not at hand.
func refusedAddr(t *testing.T) string {
	t.Helper()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	return closed.Addr().String()
}
