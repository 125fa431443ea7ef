//go:build race

package streaming

// raceEnabled: the race detector is on, and sync.Pool drops a share of
// what is put in it on purpose, so a count of allocations that relies on
// the pool says nothing.
const raceEnabled = true
