package main

import (
	"bufio"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// tuneGC sets the Go collector's target (--gc-percent) and its soft memory
// limit, the pairing Go's GC guide recommends: the target keeps collection
// cheap while the live heap is small, as it is while zproxy serves queries
// (the block cache is off the Go heap), and the limit makes the collector
// run as often as needed once a large live heap (a transaction block
// holding its writes until its end) nears it. The limit is --memory-limit, else
// GOMEMLIMIT (which the runtime has read), else half the machine's
// memory: up to a live heap of a quarter of it the collector then behaves as
// Go's default (a heap twice the live one), and below that it runs less
// often. It returns the limit in force (math.MaxInt64 for none).
func tuneGC(cfg Config) int64 {
	debug.SetGCPercent(cfg.GCPercent)
	switch {
	case cfg.MemoryLimit > 0:
		debug.SetMemoryLimit(int64(cfg.MemoryLimit))
	case os.Getenv("GOMEMLIMIT") != "":
	default:
		if m := machineMemory(); m > 0 {
			debug.SetMemoryLimit(m / 2)
		}
	}
	return debug.SetMemoryLimit(-1) // (reads it)
}

// pressureAt is how much the sessions may hold (internal/memacct: a
// transaction block's buffered writes, cursors' rows, ...) before the
// collector's target is lowered (gcUnderPressure).
const pressureAt = 64 << 20

// pressureGCPercent is the collector's target while sessions hold more
// than pressureAt: Go's default, a heap at most twice its live part.
const pressureGCPercent = 100

// gcUnderPressure returns the hook that lowers the collector's target to
// pressureGCPercent while sessions hold much (high) and restores
// --gc-percent after. At 400, a block holding 700 MB of buffered writes
// let the heap reach five times that before each collection, while the
// garbage that forming its rows left was small; what sessions hold is
// bounded by --session-memory-limit, not the heap it costs.
func gcUnderPressure(percent int) func(high bool) {
	if percent < 0 || percent <= pressureGCPercent {
		return nil
	}
	return func(high bool) {
		if high {
			debug.SetGCPercent(pressureGCPercent)
		} else {
			debug.SetGCPercent(percent)
		}
	}
}

// machineMemory is the memory this process may use: the least of its
// cgroup's limit and the machine's total, 0 when neither can be read.
func machineMemory() int64 {
	var limits []int64
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if b, err := os.ReadFile(path); err == nil {
			if n := parseCgroupLimit(string(b)); n > 0 {
				limits = append(limits, n)
			}
		}
	}
	if f, err := os.Open("/proc/meminfo"); err == nil {
		if n := parseMemTotal(f); n > 0 {
			limits = append(limits, n)
		}
		f.Close()
	}
	least := int64(0)
	for _, n := range limits {
		if least == 0 || n < least {
			least = n
		}
	}
	return least
}

// parseCgroupLimit reads a cgroup memory limit file: a number of bytes, or
// "max" (v2) or a value near 2^63 (v1) for none, which gives 0.
func parseCgroupLimit(s string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n <= 0 || n >= 1<<62 {
		return 0
	}
	return n
}

// parseMemTotal reads MemTotal from /proc/meminfo, in bytes (0 if absent).
func parseMemTotal(r io.Reader) int64 {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			n, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return 0
			}
			if len(f) >= 3 && f[2] == "kB" {
				n <<= 10
			}
			return n
		}
	}
	return 0
}
