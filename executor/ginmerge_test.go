package executor

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/zproxy/zproxy/catalog"
)

// TestMergeRuns: merging two runs of keys, each in order and without
// repeats (a packed list's blocks and its added postings), gives what
// sorting both together and dropping repeats gives, sharing keys or not.
func TestMergeRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	key := func() []byte { return []byte(fmt.Sprintf("k%03d", rng.IntN(60))) }
	for i := range 2000 {
		var a, b [][]byte
		for range rng.IntN(12) {
			a = append(a, key())
		}
		for range rng.IntN(12) {
			b = append(b, key())
		}
		a = slices.CompactFunc(slices.SortedFunc(slices.Values(a), bytes.Compare), bytes.Equal)
		b = slices.CompactFunc(slices.SortedFunc(slices.Values(b), bytes.Compare), bytes.Equal)
		if i%2 == 0 {
			// Where there is no block (a) or no added posting (b).
			a = nil
		}
		want := slices.SortedFunc(slices.Values(append(slices.Clone(a), b...)), bytes.Compare)
		want = slices.CompactFunc(want, bytes.Equal)
		got := mergeRuns(slices.Clone(a), slices.Clone(b))
		if !slices.EqualFunc(got, want, bytes.Equal) {
			t.Fatalf("mergeRuns(%q, %q) = %q, want %q", a, b, got, want)
		}
	}
}

// TestGallop: gallop finds what a linear search from the same place
// finds, over lists of every length and keys below, among and above theirs.
func TestGallop(t *testing.T) {
	for n := range 40 {
		var l [][]byte
		for i := range n {
			l = append(l, []byte(fmt.Sprintf("k%03d", 2*i+1)))
		}
		for from := 0; from <= n; from++ {
			for k := -1; k <= 2*n+1; k++ {
				key := []byte(fmt.Sprintf("k%03d", k))
				if k < 0 {
					key = []byte("a")
				}
				want := from
				for want < n && bytes.Compare(l[want], key) < 0 {
					want++
				}
				if got := gallop(flatKeys(l), from, key); got != want {
					t.Fatalf("gallop(%d keys, from %d, %q) = %d, want %d", n, from, key, got, want)
				}
			}
		}
	}
}

// TestBlockKeys: a list of blocks read in place gives every key at its
// position, asked for in order, backwards and at random, and gallop and
// its Seek over it find what gallop finds over the same keys one by one.
func TestBlockKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var all [][]byte
	for i := range 1000 {
		all = append(all, []byte(fmt.Sprintf("k%05d", 3*i)))
	}
	var l blockKeys
	for _, b := range catalog.Blocks(all) {
		blk, err := catalog.ParseBlock(catalog.AppendBlock(nil, b))
		if err != nil {
			t.Fatal(err)
		}
		l.add(blk)
	}
	if l.Len() != len(all) {
		t.Fatalf("%d keys, want %d", l.Len(), len(all))
	}
	order := rng.Perm(len(all))
	for i := range all {
		order = append(order, i, len(all)-1-i)
	}
	for _, i := range order {
		if !bytes.Equal(l.At(i), all[i]) {
			t.Fatalf("At(%d) = %q, want %q", i, l.At(i), all[i])
		}
	}
	for range 2000 {
		from, key := rng.IntN(len(all)+1), []byte(fmt.Sprintf("k%05d", rng.IntN(3100)))
		want := gallop(flatKeys(all), from, key)
		if got := gallop(&l, from, key); got != want {
			t.Fatalf("gallop from %d to %q: %d in place, %d one by one", from, key, got, want)
		}
		if got := l.Seek(from, key); got != want {
			t.Fatalf("Seek from %d to %q: %d, gallop one by one %d", from, key, got, want)
		}
	}
}

// TestKeepOn: the keys of one list on another, by a walk (lists of like
// lengths) or a gallop (a list many times longer), over keys one by one
// and over blocks, are what a set's intersection gives.
func TestKeepOn(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 300 {
		pick := func(n, space int) [][]byte {
			var out [][]byte
			for _, i := range rng.Perm(space)[:n] {
				out = append(out, []byte(fmt.Sprintf("k%05d", i)))
			}
			return slices.SortedFunc(slices.Values(out), bytes.Compare)
		}
		space := 50 + rng.IntN(3000)
		short := pick(rng.IntN(min(space, 60)), space)
		long := pick(rng.IntN(space), space)
		want := map[string]bool{}
		for _, k := range long {
			want[string(k)] = true
		}
		var bl blockKeys
		for _, b := range catalog.Blocks(long) {
			blk, _ := catalog.ParseBlock(catalog.AppendBlock(nil, b))
			bl.add(blk)
		}
		for _, l := range []memList{flatKeys(long), &bl} {
			got := keepOn(slices.Clone(short), l)
			var exp [][]byte
			for _, k := range short {
				if want[string(k)] {
					exp = append(exp, k)
				}
			}
			if !slices.EqualFunc(got, exp, bytes.Equal) {
				t.Fatalf("keepOn(%d keys, %d keys) = %q, want %q", len(short), len(long), got, exp)
			}
		}
	}
}

// TestComparePKs: comparePKs orders keys as bytes.Compare does, for
// keys of every length up to three words, equal and unequal at every byte.
func TestComparePKs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 20000 {
		a := make([]byte, rng.IntN(25))
		for i := range a {
			a[i] = byte(rng.IntN(3)) * 0x7f
		}
		b := slices.Clone(a)
		switch rng.IntN(3) {
		case 0:
			if len(b) > 0 {
				b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
			}
		case 1:
			b = b[:rng.IntN(len(b)+1)]
		}
		want := bytes.Compare(a, b)
		if got := comparePKs(a, b); (got < 0) != (want < 0) || (got > 0) != (want > 0) {
			t.Fatalf("comparePKs(% x, % x) = %d, want the sign of %d", a, b, got, want)
		}
	}
}
