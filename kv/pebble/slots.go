package pebble

import "unsafe"

// unsafeSlots views an allocOffHeap region as uint64 slots (mappings are
// page-aligned; a heap fallback from make([]byte) is 8-aligned for sizes
// this large).
func unsafeSlots(raw []byte) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(raw))), len(raw)/8)
}

// freeSlots gives slots from unsafeSlots back.
func freeSlots(s []uint64) {
	if len(s) == 0 {
		return
	}
	freeOffHeap(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*8))
}
