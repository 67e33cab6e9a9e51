package main

import (
	"context"
	"fmt"
	"time"
)

// CPU time of the write benchmarks (load, INSERT throughput, COPY): what
// the server that ran the writes spent on them. On a machine shared with
// other jobs, rows per second measure the neighbours as much as the
// servers; CPU per row much less so. zproxy's span ends only once it is
// idle, so the flushes and compactions its writes caused count too.

// cpuSpan is one measurement of one system's CPU time.
type cpuSpan struct {
	m      *cpuMeter // nil: no CPU times on this machine
	zproxy bool
	start  time.Duration
}

// startCPU starts measuring the CPU time of system ("zproxy" or
// "PostgreSQL"); m may be nil.
func startCPU(m *cpuMeter, system string) cpuSpan {
	s := cpuSpan{m: m, zproxy: system == "zproxy"}
	s.start, _ = s.read()
	return s
}

func (s cpuSpan) read() (time.Duration, error) {
	if s.m == nil {
		return 0, fmt.Errorf("no CPU meter")
	}
	z, pg, err := s.m.read()
	if s.zproxy {
		return z, err
	}
	return pg, err
}

// stop returns the CPU time spent since startCPU (0 if unknown), after
// letting zproxy finish its compactions.
func (s cpuSpan) stop(ctx context.Context) time.Duration {
	if s.m == nil {
		return 0
	}
	if s.zproxy {
		s.m.settle(ctx, 2*time.Minute)
	} else {
		// The loaders' backends exit as their connections close; until
		// the postmaster reaps them their CPU time is in neither its live
		// children nor its cutime.
		time.Sleep(500 * time.Millisecond)
	}
	end, err := s.read()
	if err != nil {
		return 0
	}
	return end - s.start
}

// perRow formats CPU time per row, or "" when unknown.
func perRow(cpu time.Duration, rows int64) string {
	if cpu <= 0 || rows <= 0 {
		return ""
	}
	return fmt.Sprintf("%.1f µs", float64(cpu.Microseconds())/float64(rows))
}

// writeMeter returns a CPU meter of both servers, or nil (logged) where
// there is none.
func writeMeter(zp *zproxyServer, pg *postgres) *cpuMeter {
	m, err := newCPUMeter(zp, pg)
	if err != nil {
		logf("no CPU times for the writes: %v", err)
		return nil
	}
	return m
}
