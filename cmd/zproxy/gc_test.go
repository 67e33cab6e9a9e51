package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestParseMemoryLimits(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"max\n", 0},
		{"9223372036854771712\n", 0}, // cgroup v1's "no limit"
		{"2147483648\n", 2 << 30},
		{"", 0},
		{"garbage", 0},
	} {
		if got := parseCgroupLimit(c.in); got != c.want {
			t.Errorf("parseCgroupLimit(%q) = %d, want %d", c.in, got, c.want)
		}
	}
	meminfo := "MemFree:         1000 kB\nMemTotal:       24684092 kB\nBuffers: 1 kB\n"
	if got := parseMemTotal(strings.NewReader(meminfo)); got != 24684092<<10 {
		t.Errorf("parseMemTotal = %d", got)
	}
	if got := parseMemTotal(strings.NewReader("MemFree: 1 kB\n")); got != 0 {
		t.Errorf("parseMemTotal without MemTotal = %d", got)
	}
}

// tuneGC applies --memory-limit when given, else half the machine's memory.
func TestTuneGC(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	cfg := defaultConfig()
	cfg.MemoryLimit = 3 << 30
	if got := tuneGC(cfg); got != 3<<30 {
		t.Errorf("--memory-limit 3GiB: limit %d", got)
	}
	cfg.MemoryLimit = 0
	if m := machineMemory(); m > 0 {
		if got := tuneGC(cfg); got != m/2 {
			t.Errorf("default limit %d, want half of %d", got, m)
		}
	}
}

// TestGCUnderPressure: while sessions hold much the collector's target is
// Go's default, then --gc-percent again; a target at or below the default
// is left alone.
func TestGCUnderPressure(t *testing.T) {
	prev := debug.SetGCPercent(400)
	defer debug.SetGCPercent(prev)
	h := gcUnderPressure(400)
	h(true)
	if got := debug.SetGCPercent(400); got != pressureGCPercent {
		t.Errorf("under pressure: gc percent %d, want %d", got, pressureGCPercent)
	}
	h(false)
	if got := debug.SetGCPercent(400); got != 400 {
		t.Errorf("after: gc percent %d, want 400", got)
	}
	if gcUnderPressure(100) != nil || gcUnderPressure(-1) != nil {
		t.Error("a target at or below the default got a hook")
	}
}
