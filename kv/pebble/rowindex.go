package pebble

// rowIndex is a row cache generation's index from a key's hash to its
// entry: open addressing with linear probing, at most half full. A lookup
// usually reads one cache line (two slots share one), where Go's map reads
// its group's control word and then the slot: on a cache of many
// megabytes both are memory misses, and the lookup was a quarter of a gin
// query's CPU (bench/README.md, "Issue 28, round seven").
//
// The slot's position is taken from the hash's top bits: the low ones
// pick the shard, so within a shard they are all alike. A hash of 0 marks
// an empty slot, so a key whose hash is 0 is indexed as 1; its key is
// compared on every hit anyway.
type rowIndex struct {
	slots []rowIndexSlot // a power of two of them, or none
	shift uint           // 64 - log2(len(slots))
	n     int
}

type rowIndexSlot struct {
	h uint64
	rowSlot
}

// rowIndexMinSlots is a new index's size.
const rowIndexMinSlots = 64

func indexHash(h uint64) uint64 {
	if h == 0 {
		return 1
	}
	return h
}

func (x *rowIndex) home(h uint64) int { return int(h >> x.shift) }

// get returns the slot of hash h.
func (x *rowIndex) get(h uint64) (rowSlot, bool) {
	if x.n == 0 {
		return rowSlot{}, false
	}
	h = indexHash(h)
	mask := len(x.slots) - 1
	for i := x.home(h); ; i = (i + 1) & mask {
		switch s := &x.slots[i]; s.h {
		case h:
			return s.rowSlot, true
		case 0:
			return rowSlot{}, false
		}
	}
}

// put sets the slot of hash h, replacing the one it had.
func (x *rowIndex) put(h uint64, slot rowSlot) {
	if 2*(x.n+1) > len(x.slots) {
		x.grow()
	}
	h = indexHash(h)
	mask := len(x.slots) - 1
	for i := x.home(h); ; i = (i + 1) & mask {
		s := &x.slots[i]
		if s.h == h {
			s.rowSlot = slot
			return
		}
		if s.h == 0 {
			*s = rowIndexSlot{h: h, rowSlot: slot}
			x.n++
			return
		}
	}
}

// grow doubles the slots (or makes the first ones) and places every entry
// again.
func (x *rowIndex) grow() {
	old := x.slots
	size := max(2*len(old), rowIndexMinSlots)
	x.slots, x.n = make([]rowIndexSlot, size), 0
	x.shift = 64
	for s := size; s > 1; s >>= 1 {
		x.shift--
	}
	for _, s := range old {
		if s.h != 0 {
			x.put(s.h, s.rowSlot)
		}
	}
}

// del removes hash h's slot, reporting whether there was one. The entries
// after it in its run move back into the gap when their home allows, so
// no tombstone is left and every run stays unbroken (Knuth's algorithm R).
func (x *rowIndex) del(h uint64) bool {
	if x.n == 0 {
		return false
	}
	h = indexHash(h)
	mask := len(x.slots) - 1
	i := x.home(h)
	for ; x.slots[i].h != h; i = (i + 1) & mask {
		if x.slots[i].h == 0 {
			return false
		}
	}
	for j := i; ; {
		j = (j + 1) & mask
		if x.slots[j].h == 0 {
			break
		}
		// The entry at j may move to the gap at i unless its home lies
		// cyclically in (i, j].
		k := x.home(x.slots[j].h)
		if i <= j && (k <= i || k > j) || i > j && k <= i && k > j {
			x.slots[i] = x.slots[j]
			i = j
		}
	}
	x.slots[i] = rowIndexSlot{}
	x.n--
	return true
}
