package pebble

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvtest"
)

// TestScalarsMatchProjectedDecode: decodeV2Scalars (kv.ScalarIterator's
// one-walk read) gives, slot by slot in request order, the attributes
// decodeValueAliased gives for the same projection, on random values in
// format 2 of every kind, random requests (attributes the value lacks
// included) and damaged values. Where it reports true the general decode
// succeeds and agrees; a requested name that is not the stored one under
// its ID, a value in format 1 and a request with an attribute without an ID
// report false.
func TestScalarsMatchProjectedDecode(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	all := withIDs(kvtest.AllKinds())
	readSo := 0
	const trials = 3000
	for trial := 0; trial < trials; trial++ {
		// A random subset of the attributes, in ID order, as stored.
		var stored []kv.Attr
		for _, a := range all {
			if r.IntN(3) > 0 {
				stored = append(stored, a)
			}
		}
		v, err := appendValue(nil, stored)
		if err != nil {
			t.Fatal(err)
		}
		// A request: a random subset of all attributes (some absent from
		// the value), in random order.
		var names []string
		var ids []uint16
		for _, i := range r.Perm(len(all))[:1+r.IntN(len(all))] {
			names = append(names, all[i].Name)
			ids = append(ids, all[i].ID)
		}
		renamed := -1
		if r.IntN(8) == 0 {
			renamed = r.IntN(len(names))
			names[renamed] = "other"
		}
		damaged := len(stored) > 0 && r.IntN(6) == 0
		if damaged {
			// Damage a byte (or cut the value short).
			v = bytes.Clone(v)
			if r.IntN(2) == 0 {
				v = v[:r.IntN(len(v))]
			} else {
				v[r.IntN(len(v))] ^= byte(1 + r.IntN(255))
			}
		}
		p := newProjection(names, ids)
		dst := make([]kv.Scalar, len(names))
		for i := range dst {
			dst[i] = kv.Scalar{Present: true, Kind: kv.AttrInt, I: 99} // last item's
		}
		ok := decodeV2Scalars(dst, v, p)
		want, err := decodeValueAliased(nil, v, newProjection(names, ids))
		if !ok {
			// (A damaged value may read in general with a damaged name,
			// which the scalars refuse.)
			if err == nil && !damaged && renamed < 0 {
				t.Fatalf("trial %d: false on a value the general decode reads: %s", trial, kvtest.FormatAttrs(want))
			}
			continue
		}
		readSo++
		if err != nil {
			t.Fatalf("trial %d: true on a value the general decode refuses: %v", trial, err)
		}
		byID := map[uint16]kv.Attr{}
		for _, a := range want {
			byID[a.ID] = a
		}
		for j, id := range ids {
			w, present := byID[id]
			if present && w.Name != names[j] {
				t.Fatalf("trial %d: slot %d read %q under the name %q", trial, j, w.Name, names[j])
			}
			if dst[j].Present != present {
				t.Fatalf("trial %d slot %d: present %v, want %v", trial, j, dst[j].Present, present)
			}
			if present {
				if got := dst[j].Attr(names[j], id); !kvtest.AttrEqual(got, w) {
					t.Fatalf("trial %d slot %d: %s, want %s", trial, j, kvtest.FormatAttrs([]kv.Attr{got}), kvtest.FormatAttrs([]kv.Attr{w}))
				}
			}
		}
	}
	if readSo < trials/2 {
		t.Errorf("only %d of %d values read as scalars", readSo, trials)
	}
	// Not read so: format 1, and a request with an attribute without an ID.
	plain := kvtest.AllKinds()
	v1, _ := appendValue(nil, plain)
	if decodeV2Scalars(make([]kv.Scalar, 1), v1, newProjection([]string{plain[0].Name}, []uint16{1})) {
		t.Error("a format 1 value read as scalars")
	}
	v2, _ := appendValue(nil, all)
	if p := newProjection([]string{all[0].Name, all[1].Name}, []uint16{all[0].ID, 0}); p.slots != nil || decodeV2Scalars(make([]kv.Scalar, 2), v2, p) {
		t.Error("a request with an attribute without an ID read as scalars")
	}
}

// BenchmarkScalars reads an index entry of the readings table (sensor_id,
// ts, celsius, lat, lon, note, in format 2) as the box classes' scans do:
// the 2-D box's three columns and the aggregate's one.
func BenchmarkScalars(b *testing.B) {
	entry := withIDs([]kv.Attr{
		{Name: "sensor_id", Kind: kv.AttrInt, I: 123456},
		{Name: "ts", Kind: kv.AttrInt, I: 1704103212345678},
		{Name: "celsius", Kind: kv.AttrFloat, F: 21.37},
		{Name: "lat", Kind: kv.AttrFloat, F: 40.123456},
		{Name: "lon", Kind: kv.AttrFloat, F: -73.987654},
		{Name: "note", Kind: kv.AttrString, S: "n42"},
	})
	v, err := appendValue(nil, entry)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		names []string
		ids   []uint16
	}{
		{"2-D", []string{"sensor_id", "ts", "celsius"}, []uint16{1, 2, 3}},
		{"aggregate", []string{"celsius"}, []uint16{3}},
	} {
		b.Run(c.name, func(b *testing.B) {
			p := newProjection(c.names, c.ids)
			dst := make([]kv.Scalar, len(c.names))
			for b.Loop() {
				if !decodeV2Scalars(dst, v, p) {
					b.Fatal("not read")
				}
			}
		})
	}
}
