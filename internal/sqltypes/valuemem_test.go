package sqltypes

import (
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/memacct"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestValueMemoryGate: large element arrays are charged to the gate while
// they live and given back once collected; small ones are not charged; a
// request past the limit fails with 53200 and takes nothing; AppendElem
// charges the backing arrays it grows into. Not parallel: the gate is the
// process's.
func TestValueMemoryGate(t *testing.T) {
	pool := memacct.NewPool(64 << 20)
	prev := SetValueMemory(pool.Account(0))
	t.Cleanup(func() { SetValueMemory(prev) })

	small, err := MakeElems(100, "a small array")
	if err != nil || len(small) != 100 || pool.Used() != 0 {
		t.Fatalf("a small array: %d elements, %v; pool holds %d, want 0", len(small), err, pool.Used())
	}
	const n = 200_000 // 11 MB
	big, err := MakeElems(n, "a big array")
	if err != nil || len(big) != n {
		t.Fatal(len(big), err)
	}
	if want := n * valueSize; pool.Used() != want {
		t.Fatalf("after a big array: pool holds %d, want %d", pool.Used(), want)
	}
	_, err = MakeElems(2_000_000, "a huge array") // 112 MB
	var pe *pgerr.Error
	if !errors.As(err, &pe) || pe.Code != pgerr.OutOfMemory {
		t.Fatalf("an array past the limit: %v, want 53200", err)
	}
	if want := n * valueSize; pool.Used() != want {
		t.Fatalf("after the refused array: pool holds %d, want %d", pool.Used(), want)
	}
	runtime.KeepAlive(big)
	big = nil
	waitFor(t, func() bool { return pool.Used() == 0 }, "the big array's bytes given back once collected")

	// Grown one element at a time, as array_agg: charged as it passes the
	// threshold, and the garbage of each doubling given back.
	var elems []Value
	for i := range 3 * n {
		if elems, err = AppendElem(elems, NewInt(int64(i)), "an accumulated array"); err != nil {
			t.Fatalf("element %d: %v", i, err)
		}
	}
	if len(elems) != 3*n || elems[3*n-1].I != 3*n-1 || elems[n].I != n {
		t.Fatalf("AppendElem lost elements: %d", len(elems))
	}
	if used := pool.Used(); used < int64(cap(elems))*valueSize {
		t.Fatalf("the accumulated array's %d bytes are not all charged: %d", int64(cap(elems))*valueSize, used)
	}
	keep := int64(cap(elems)) * valueSize
	waitFor(t, func() bool { return pool.Used() == keep }, "the doublings' garbage given back")
	runtime.KeepAlive(elems)

	// A request the garbage alone blocks succeeds once it is collected.
	elems = nil
	for range 8 {
		a, err := MakeElems(1_000_000, "an array a row") // 56 MB of the 64
		if err != nil {
			t.Fatalf("arrays one at a time, each within the limit: %v", err)
		}
		runtime.KeepAlive(a)
	}
}

// waitFor collects until cond holds (cleanups run after a collection, on
// a goroutine of their own).
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("%s: timed out", what)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}
