package memacct

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestSessionLimit: a request past the session's limit is 53200 with a
// DETAIL naming its size, takes nothing, and later requests that fit
// succeed.
func TestSessionLimit(t *testing.T) {
	p := NewPool(0)
	a := p.Account(1000)
	if err := a.Grow(600, "COPY's pending writes"); err != nil {
		t.Fatal(err)
	}
	err := a.Grow(500, "COPY's pending writes")
	pe := pgerr.As(err)
	if pe == nil || pe.Code != pgerr.OutOfMemory || pe.Message != "out of memory" {
		t.Fatalf("past the limit: %v, want 53200 out of memory", err)
	}
	if !strings.Contains(pe.Detail, "Failed on request of size 500 bytes for COPY's pending writes") ||
		!strings.Contains(pe.Detail, "--session-memory-limit") {
		t.Errorf("detail %q", pe.Detail)
	}
	if a.Used() != 600 || p.Used() != 600 {
		t.Errorf("a refused request took memory: account %d, pool %d", a.Used(), p.Used())
	}
	if err := a.Grow(400, "x"); err != nil {
		t.Errorf("a request that fits: %v", err)
	}
	a.Shrink(1000)
	if a.Used() != 0 || p.Used() != 0 {
		t.Errorf("after Shrink: account %d, pool %d", a.Used(), p.Used())
	}
}

// TestPoolLimit: the process-wide limit refuses the session that crosses
// it, not the others, and a closed Account gives its memory back.
func TestPoolLimit(t *testing.T) {
	p := NewPool(1000)
	a, b := p.Account(0), p.Account(0)
	if err := a.Grow(800, "cursors"); err != nil {
		t.Fatal(err)
	}
	err := b.Grow(300, "prepared statements")
	if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.OutOfMemory || !strings.Contains(pe.Detail, "--all-sessions-memory-limit") {
		t.Fatalf("past the pool's limit: %v", err)
	}
	if b.Used() != 0 || p.Used() != 800 {
		t.Errorf("a refused request took memory: account %d, pool %d", b.Used(), p.Used())
	}
	a.Close()
	a.Shrink(800) // a cursor closed after its session: given back already
	if p.Used() != 0 {
		t.Errorf("pool holds %d after the account closed", p.Used())
	}
	if err := b.Grow(900, "cursors"); err != nil {
		t.Errorf("after the other session ended: %v", err)
	}
	var nilAcct *Account
	if err := nilAcct.Grow(1<<40, "x"); err != nil {
		t.Errorf("a nil account refused: %v", err)
	}
}

// TestPressureHook: the hook hears of use rising past its threshold once,
// and of its fall below half of it once.
func TestPressureHook(t *testing.T) {
	p := NewPool(0)
	var calls []bool
	p.SetPressureHook(100, func(high bool) { calls = append(calls, high) })
	a := p.Account(0)
	_ = a.Grow(60, "x")
	_ = a.Grow(60, "x") // 120: high
	_ = a.Grow(60, "x")
	a.Shrink(100) // 80: still high
	a.Shrink(40)  // 40: low
	_ = a.Grow(10, "x")
	a.Close()
	if len(calls) != 2 || !calls[0] || calls[1] {
		t.Errorf("hook calls %v, want [true false]", calls)
	}
}
