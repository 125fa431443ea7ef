//go:build !linux

package main

import (
	"errors"
	"os"
)

// openPTY opens a pseudo-terminal pair where the tests know how: on Linux.
func openPTY() (master, slave *os.File, err error) {
	return nil, nil, errors.New("the tests open pseudo-terminals on Linux only")
}
