//go:build unix

package otelmcp_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used, user and system. On a
// loaded machine it is steadier than wall time: waiting for a core does
// not count.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
