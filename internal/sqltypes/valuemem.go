package sqltypes

import (
	"runtime"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"
)

// Large values' memory.
//
// PostgreSQL bounds a value by its own representation (MaxAllocSize,
// limits.go), and each backend is a process of its own, so one session's
// 500 MB array costs no other session anything. zproxy's sessions share
// one process, and an element here is a Value of ValueSize bytes where
// PostgreSQL's int4 element takes 4: array_fill(1, ARRAY[134217727]),
// within PostgreSQL's limits, would be 7.5 GB of live heap, and two or
// three sessions asking at once would take the whole proxy down.
//
// So the element arrays of large values are charged to a process-wide
// gate (SetValueMemory: cmd/zproxy gives the engine's all-sessions pool,
// internal/memacct) for as long as they live: MakeElems and AppendElem
// take the bytes before allocating and give them back when the collector
// frees the array (runtime.AddCleanup), so a statement that builds a big
// array a row and drops it is charged for the ones alive at once, not for
// their sum. A request past the gate's limit collects first (what is
// garbage is still charged until then) and fails with the gate's 53200
// only if the memory is really held. Arrays under LargeValue bytes are not
// charged: their sum is bounded by what builds them (work_mem, the
// session's limits) and the charge would cost every small array a call.

// MemoryGate is where large values take their memory from
// (*memacct.Account is one).
type MemoryGate interface {
	// Grow takes n bytes for what, or fails (53200) taking nothing.
	Grow(n int64, what string) error
	// Shrink gives back n bytes taken by Grow.
	Shrink(n int64)
}

// ValueSize is the bytes one Value takes in memory: an array's element,
// a kept row's column.
const ValueSize = int64(unsafe.Sizeof(Value{}))

// LargeValue is the size in bytes from which a value being built is
// charged to the gate (an element array of about 18,700 elements); a
// builder may take its plain path below it.
const LargeValue = 1 << 20

// gateRetry is how long a refused request waits, in all, for the
// cleanups of the arrays a collection found dead to give their bytes back.
const gateRetry = 50 * time.Millisecond

type gateBox struct{ g MemoryGate }

var valueGate atomic.Pointer[gateBox]

// SetValueMemory makes g the gate large values are charged to (nil: none,
// the default) and returns the previous one. The gate is the process's:
// memory is, and only one engine per process sets it.
func SetValueMemory(g MemoryGate) MemoryGate {
	var box *gateBox
	if g != nil {
		box = &gateBox{g}
	}
	if old := valueGate.Swap(box); old != nil {
		return old.g
	}
	return nil
}

// MakeElems returns n zero elements for a value being built by what (a
// phrase for the error: "array_fill's array"), charged to the gate while
// they live when they are large. The caller has checked n against
// PostgreSQL's limits (ArrayElemsLimit).
func MakeElems(n int64, what string) ([]Value, error) {
	return makeElems(n, n, what)
}

// makeElems is MakeElems with a capacity.
func makeElems(n, capacity int64, what string) ([]Value, error) {
	size := capacity * ValueSize
	box := valueGate.Load()
	if box == nil || size < LargeValue {
		return make([]Value, n, capacity), nil
	}
	if err := grow(box.g, size, what); err != nil {
		return nil, err
	}
	elems := make([]Value, n, capacity)
	runtime.AddCleanup(unsafe.SliceData(elems), box.g.Shrink, size)
	return elems, nil
}

// AppendElem appends v to elems as append does, growing a large backing
// array through the gate (see MakeElems).
func AppendElem(elems []Value, v Value, what string) ([]Value, error) {
	if len(elems) < cap(elems) {
		return append(elems, v), nil
	}
	newCap := max(2*int64(cap(elems)), 8)
	if newCap*ValueSize < LargeValue || valueGate.Load() == nil {
		return append(elems, v), nil
	}
	grown, err := makeElems(int64(len(elems)), newCap, what)
	if err != nil {
		return nil, err
	}
	copy(grown, elems)
	return append(grown, v), nil
}

// MakeBytes returns an empty byte buffer of the given capacity for a text
// or bytea value being built by what, charged to the gate while it lives
// when it is large, as MakeElems charges an array's elements. The caller
// has checked the value against PostgreSQL's limits (limits.go).
func MakeBytes(capacity int64, what string) ([]byte, error) {
	box := valueGate.Load()
	if box == nil || capacity < LargeValue {
		return make([]byte, 0, capacity), nil
	}
	if err := grow(box.g, capacity, what); err != nil {
		return nil, err
	}
	buf := make([]byte, 0, capacity)
	runtime.AddCleanup(unsafe.SliceData(buf), box.g.Shrink, capacity)
	return buf, nil
}

// grow takes size bytes from g; when g refuses, it collects and waits
// for the dead arrays' cleanups to give their bytes back before it gives
// up.
func grow(g MemoryGate, size int64, what string) error {
	err := g.Grow(size, what)
	if err == nil {
		return nil
	}
	runtime.GC()
	for deadline := time.Now().Add(gateRetry); ; {
		if err = g.Grow(size, what); err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(time.Millisecond)
	}
}

// ValueCharge is the memory a value being built piece by piece takes (a
// JSON document's members, the rows a subquery keeps), charged to the gate
// in steps of LargeValue as it grows, so that a value many times the size
// of its input fails before it is built rather than after. The zero
// ValueCharge charges nothing.
type ValueCharge struct {
	g       MemoryGate
	what    string
	held    int64 // charged to g
	pending int64 // counted, not charged yet
}

// StartCharge begins the charge of a value being built by what (none
// without a gate).
func StartCharge(what string) ValueCharge {
	if box := valueGate.Load(); box != nil {
		return ValueCharge{g: box.g, what: what}
	}
	return ValueCharge{}
}

// Add counts n more bytes, charging them once a step's worth is counted,
// or fails with the gate's 53200.
func (c *ValueCharge) Add(n int64) error {
	if c.g == nil {
		return nil
	}
	c.pending += n
	if c.pending < LargeValue {
		return nil
	}
	if err := grow(c.g, c.pending, c.what); err != nil {
		return err
	}
	c.held, c.pending = c.held+c.pending, 0
	return nil
}

// Drop gives back what was charged (the value was not built, or is
// dropped).
func (c *ValueCharge) Drop() {
	if c.held > 0 {
		c.g.Shrink(c.held)
	}
	*c = ValueCharge{}
}

// KeepCharge hands what c charged to the life of the allocation obj points
// into: it is given back when the collector frees it (the value's root; a
// part of the value kept past the root leaves the charge early, which only
// undercounts).
func KeepCharge[T any](c *ValueCharge, obj *T) {
	if c.held > 0 {
		runtime.AddCleanup(obj, c.g.Shrink, c.held)
	}
	*c = ValueCharge{}
}

// RowMemory is the memory a row kept apart from its producer takes at the
// least: its slice, its values and their strings' bytes.
func RowMemory(r []Value) int64 {
	n := 24 + int64(len(r))*ValueSize
	for _, v := range r {
		n += int64(len(v.S))
	}
	return n
}

// Concat joins parts into one text or bytea value built by what, in one
// allocation charged to the gate when it is large. The caller has checked
// the result against the limit PostgreSQL meets building it (AllocLimit
// for ||).
func Concat(what string, parts ...string) (string, error) {
	var n int64
	for _, p := range parts {
		n += int64(len(p))
	}
	if n < LargeValue {
		if len(parts) == 2 {
			return parts[0] + parts[1], nil
		}
		return strings.Join(parts, ""), nil
	}
	buf, err := MakeBytes(n, what)
	if err != nil {
		return "", err
	}
	for _, p := range parts {
		buf = append(buf, p...)
	}
	return unsafe.String(unsafe.SliceData(buf), len(buf)), nil
}

// Repeat is s count times, built by what in one allocation charged to
// the gate when it is large (repeat, the padding of lpad and rpad). The
// caller has checked the result's length (LengthLimit).
func Repeat(s string, count int64, what string) (string, error) {
	buf, err := MakeBytes(int64(len(s))*count, what)
	if err != nil {
		return "", err
	}
	buf = AppendRepeat(buf, s, count)
	return unsafe.String(unsafe.SliceData(buf), len(buf)), nil
}

// AppendRepeat appends s count times to buf, copying what it has written
// in doubling steps as strings.Repeat does.
func AppendRepeat(buf []byte, s string, count int64) []byte {
	if count <= 0 || s == "" {
		return buf
	}
	start := len(buf)
	total := start + len(s)*int(count)
	buf = append(buf, s...)
	for len(buf) < total {
		buf = append(buf, buf[start:min(len(buf), total-(len(buf)-start))]...)
	}
	return buf
}
