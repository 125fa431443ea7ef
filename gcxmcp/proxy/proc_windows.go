package proxy

import (
	"fmt"
	"os/exec"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Windows has no process groups and no signals a console-less server
// could catch: the proxy stops the server process itself, and a job object
// holds the server and every process it starts.
func ownGroup(cmd *exec.Cmd)                 {}
func terminate(cmd *exec.Cmd, esc *escapees) { cmd.Process.Kill() }
func kill(cmd *exec.Cmd, esc *escapees)      { cmd.Process.Kill() }
func endGroup(cmd *exec.Cmd, esc *escapees)  {}

// contain puts the started server in a job object that ends every process
// in it when its last handle closes: when release closes it at the
// session's end, or when the proxy ends in any way, TerminateProcess
// included, since the handle is the proxy's alone. The processes the
// server starts join its job. A child started in the moment between the
// server's start and its assignment to the job is not held: os/exec cannot
// start a process suspended or inside a job.
func contain(cmd *exec.Cmd) (release func(), err error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return func() {}, fmt.Errorf("creating a job object for the server: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{
			LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
		},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return func() {}, fmt.Errorf("setting the server's job object to end with the proxy: %w", err)
	}
	process, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(cmd.Process.Pid))
	if err != nil {
		windows.CloseHandle(job)
		return func() {}, fmt.Errorf("opening the server's process for its job object: %w", err)
	}
	defer windows.CloseHandle(process)
	if err := windows.AssignProcessToJobObject(job, process); err != nil {
		windows.CloseHandle(job)
		return func() {}, fmt.Errorf("putting the server in its job object: %w", err)
	}
	return func() { windows.CloseHandle(job) }, nil
}
