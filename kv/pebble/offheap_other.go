//go:build !unix

package pebble

// allocOffHeap returns n zeroed bytes; without anonymous mappings they
// are on the Go heap.
func allocOffHeap(n int) []byte { return make([]byte, n) }

// freeOffHeap leaves b to the collector.
func freeOffHeap([]byte) {}
