//go:build unix

package pebble

import "syscall"

// allocOffHeap returns n zeroed bytes outside the Go heap (an anonymous
// mapping), which freeOffHeap gives back to the system at once. A bulk
// batch keeps its encoded ops there: on the Go heap, a live set of
// hundreds of megabytes would let the collector (at --gc-percent 400) let
// the heap grow to five times that before collecting the garbage that
// forming the rows leaves behind.
func allocOffHeap(n int) []byte {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]byte, n) // the Go heap will do
	}
	return b
}

// freeOffHeap releases memory from allocOffHeap; b must not be used after.
func freeOffHeap(b []byte) {
	if cap(b) == 0 {
		return
	}
	if err := syscall.Munmap(b[:cap(b)]); err != nil {
		// Not a mapping (allocOffHeap fell back to the heap): the
		// collector frees it.
		return
	}
}
