//go:build !unix

package proxy

import (
	"errors"
	"io"
	"os/exec"
)

// WatchGroup needs process groups. On Windows the server's job object
// does its work: the server and its children end when the proxy does,
// however it ends.
func WatchGroup(lifeline io.Reader, pgid int) error {
	return errors.New("the watchdog needs process groups, which this system lacks")
}

func startWatchdog(watchdog, cmd *exec.Cmd) (release func(), err error) {
	return func() {}, nil
}
