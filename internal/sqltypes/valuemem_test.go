package sqltypes

import (
	"errors"
	"runtime"
	"strings"
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
	if want := n * ValueSize; pool.Used() != want {
		t.Fatalf("after a big array: pool holds %d, want %d", pool.Used(), want)
	}
	_, err = MakeElems(2_000_000, "a huge array") // 112 MB
	var pe *pgerr.Error
	if !errors.As(err, &pe) || pe.Code != pgerr.OutOfMemory {
		t.Fatalf("an array past the limit: %v, want 53200", err)
	}
	if want := n * ValueSize; pool.Used() != want {
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
	if used := pool.Used(); used < int64(cap(elems))*ValueSize {
		t.Fatalf("the accumulated array's %d bytes are not all charged: %d", int64(cap(elems))*ValueSize, used)
	}
	keep := int64(cap(elems)) * ValueSize
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

// TestJSONParseCharged: a parsed document's members are charged as they
// are parsed, so one past the gate fails with 53200 before it is built,
// and a document that fits is charged until it is collected.
func TestJSONParseCharged(t *testing.T) {
	pool := memacct.NewPool(16 << 20)
	prev := SetValueMemory(pool.Account(0))
	t.Cleanup(func() { SetValueMemory(prev) })

	doc := func(n int) string { return "[" + strings.Repeat("1,", n-1) + "1]" }
	for _, raw := range []bool{false, true} {
		_, err := parseJSONText(doc(200_000), raw) // about 27 MB as a tree
		var pe *pgerr.Error
		if !errors.As(err, &pe) || pe.Code != pgerr.OutOfMemory {
			t.Fatalf("raw %v: a document past the gate: %v, want 53200", raw, err)
		}
		waitFor(t, func() bool { return pool.Used() == 0 }, "the refused document's charge given back")
		v, err := parseJSONText(doc(50_000), raw) // about 7 MB
		if err != nil || len(v.Elems) != 50_000 {
			t.Fatalf("raw %v: a document within the gate: %v", raw, err)
		}
		if pool.Used() < 5<<20 {
			t.Fatalf("raw %v: the document is charged %d bytes, want its members'", raw, pool.Used())
		}
		runtime.KeepAlive(v)
		v = nil
		waitFor(t, func() bool { return pool.Used() == 0 }, "the document's charge given back once collected")
		if v, err := parseJSONText(`{"a": [1, 2, {"b": null}]}`, raw); err != nil || pool.Used() != 0 || len(v.Keys) != 1 {
			t.Fatalf("raw %v: a small document: %v, pool holds %d", raw, err, pool.Used())
		}
	}
}
