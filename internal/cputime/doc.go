// Package cputime reads the processor time the calling thread has used,
// for benchmarks that must give ratios on a loaded machine: unlike the wall
// clock, it leaves out the time the thread waits for a processor, which on
// a shared machine can be most of a benchmark's time. Linux only.
package cputime
