package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// CPU time of the servers, read from /proc (Linux), so that a class can be
// charged the CPU each system spent on it: on a shared machine wall time
// also measures the neighbours, CPU time much less so.

// clockTick is the unit of /proc/<pid>/stat's times (USER_HZ, 100 on every
// Linux architecture zproxy runs on).
const clockTick = 10 * time.Millisecond

// threadsCPU is the CPU time every live thread of process pid has run, from
// the nanosecond counters of /proc/<pid>/task/<tid>/schedstat.
func threadsCPU(pid int) (time.Duration, error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("no /proc/%d/task/*/schedstat: %v", pid, err)
	}
	var total time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue // the thread ended meanwhile
		}
		f := strings.Fields(string(b))
		if len(f) > 0 {
			ns, _ := strconv.ParseInt(f[0], 10, 64)
			total += time.Duration(ns)
		}
	}
	return total, nil
}

// procStat returns the fields of /proc/<pid>/stat after the command name
// (field 3, the state, is out[0]).
func procStat(pid int) ([]string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')') // the name may hold spaces and parentheses
	if i < 0 {
		return nil, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	return strings.Fields(s[i+1:]), nil
}

// clusterCPU is the CPU time of a PostgreSQL cluster: its postmaster and
// every live child (backends, parallel workers, background processes) by
// their schedstat counters, plus what the children that have exited and
// been reaped ran (the postmaster's cutime and cstime, in clock ticks), so
// a parallel worker started and ended between two readings still counts.
func clusterCPU(postmaster int) (time.Duration, error) {
	total, err := threadsCPU(postmaster)
	if err != nil {
		return 0, err
	}
	st, err := procStat(postmaster)
	if err != nil || len(st) < 15 {
		return 0, fmt.Errorf("postmaster %d: %v", postmaster, err)
	}
	cu, _ := strconv.ParseInt(st[13], 10, 64) // field 16, cutime
	cs, _ := strconv.ParseInt(st[14], 10, 64) // field 17, cstime
	total += time.Duration(cu+cs) * clockTick
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		if err != nil {
			continue
		}
		st, err := procStat(pid)
		if err != nil || len(st) < 2 || st[1] != strconv.Itoa(postmaster) {
			continue
		}
		if t, err := threadsCPU(pid); err == nil {
			total += t
		}
	}
	return total, nil
}

// postmasterPid reads the postmaster's id from its data directory.
func (pg *postgres) postmasterPid() (int, error) {
	b, err := os.ReadFile(filepath.Join(pg.Dir, "data", "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return strconv.Atoi(strings.TrimSpace(line))
}

// cpuMeter reads both servers' CPU time.
type cpuMeter struct {
	zproxy, postmaster int
}

func newCPUMeter(zp *zproxyServer, pg *postgres) (*cpuMeter, error) {
	pm, err := pg.postmasterPid()
	if err != nil {
		return nil, err
	}
	m := &cpuMeter{zproxy: zp.Pid(), postmaster: pm}
	if _, _, err := m.read(); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *cpuMeter) read() (zproxy, pg time.Duration, err error) {
	if zproxy, err = threadsCPU(m.zproxy); err != nil {
		return 0, 0, err
	}
	pg, err = clusterCPU(m.postmaster)
	return zproxy, pg, err
}

// settle waits until zproxy has been idle for a second (Pebble compacts for
// a while after a bulk load, which would be charged to the first class), at
// most limit.
func (m *cpuMeter) settle(ctx context.Context, limit time.Duration) {
	deadline := time.Now().Add(limit)
	last, err := threadsCPU(m.zproxy)
	for err == nil && time.Now().Before(deadline) && ctx.Err() == nil {
		time.Sleep(time.Second)
		var now time.Duration
		if now, err = threadsCPU(m.zproxy); err != nil {
			return
		}
		if now-last < 20*time.Millisecond {
			return
		}
		last = now
	}
}
