package executor

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/zproxy/zproxy/kv"
)

// keyList is a kv.KeyList over keys in memory.
type keyList [][]byte

func (l keyList) Len() int        { return len(l) }
func (l keyList) At(i int) []byte { return l[i] }

// Seek is kv.KeyList's, by a linear scan (kv/pebble's galloping one is
// tested against the same in TestCachedRangeSeek).
func (l keyList) Seek(from, skip int, key []byte) int {
	i := from + 1
	for i < len(l) && bytes.Compare(l[i][skip:], key) < 0 {
		i++
	}
	return i
}

// TestLeapfrogMatchesBruteForce: the zig-zag over posting lists held in
// memory (kv/pebble's range cache) answers exactly the intersection of
// random lists (tokens of different lengths, densities from every row
// to a few, runs and scattered keys, empty lists), whatever their order.
func TestLeapfrogMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	densities := []float64{1, 0.9, 0.5, 0.1, 0.01, 0.001, 0}
	for round := range 300 {
		rows := 1 + rng.Intn(3000)
		n := 2 + rng.Intn(3)
		toks := make([][]byte, n)
		lists := make([]keyList, n)
		in := make([]map[uint32]bool, n)
		for i := range n {
			toks[i] = []byte(fmt.Sprintf("t%0*d\x00", 1+rng.Intn(4), i))
			in[i] = map[uint32]bool{}
			d := densities[rng.Intn(len(densities))]
			run := 1 + rng.Intn(3)*rng.Intn(30)
			for id := 0; id < rows; id += run {
				on := rng.Float64() < d
				for j := id; j < min(id+run, rows); j++ {
					if on {
						// Primary keys of two lengths: a prefix of one
						// key must sort before it.
						pk := binary.BigEndian.AppendUint32(nil, uint32(j))
						if j%7 == 0 {
							pk = append(pk, 0)
						}
						lists[i] = append(lists[i], append(slices.Clip(toks[i]), pk...))
						in[i][uint32(j)] = true
					}
				}
			}
		}
		var want []string
		for j := range rows {
			all := true
			for i := range n {
				all = all && in[i][uint32(j)]
			}
			if all {
				pk := binary.BigEndian.AppendUint32(nil, uint32(j))
				if j%7 == 0 {
					pk = append(pk, 0)
				}
				want = append(want, string(pk))
			}
		}
		kls := make([]kv.KeyList, n)
		for i := range lists {
			kls[i] = lists[i]
		}
		out := pkSet{}
		s := &scanRows{}
		if err := s.leapfrog(context.Background(), kls, toks, out); err != nil {
			t.Fatal(err)
		}
		got := make([]string, 0, len(out))
		for k := range out {
			got = append(got, k)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: %d lists of %d rows: got %d keys, want %d", round, n, rows, len(got), len(want))
		}
		if read := s.stats.ItemsRead.Load(); len(want) > 0 && read < int64(len(want)) {
			t.Fatalf("round %d: %d items read for %d matches", round, read, len(want))
		}
	}
}
