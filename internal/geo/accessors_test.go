package geo

import (
	"slices"
	"testing"
)

// TestAccessorsReturnCopies: the vertices and rings the accessors return
// are copies, so a caller that changes them leaves the input alone, and
// they have the input's dimensions.
func TestAccessorsReturnCopies(t *testing.T) {
	s, err := ParseWKT("POLYGON Z ((0 0 1,4 0 1,4 4 1,0 0 1),(1 1 2,2 1 2,2 2 2,1 1 2))")
	if err != nil {
		t.Fatal(err)
	}
	before := slices.Clone(s.Rings[0])
	ring, ok := s.ExteriorRing()
	if !ok || ring.Kind != LineString || !ring.Z || ring.M {
		t.Fatalf("ExteriorRing: %+v %v", ring, ok)
	}
	ring.Coords[0] = 99
	start, ok := s.StartPoint()
	if !ok || start.Kind != Point || !slices.Equal(start.Coords, []float64{0, 0, 1}) {
		t.Fatalf("StartPoint: %+v %v", start, ok)
	}
	start.Coords[0] = 99
	hole, ok := s.InteriorRingN(1)
	if !ok || !slices.Equal(hole.Coords, s.Rings[1]) {
		t.Fatalf("InteriorRingN(1): %+v %v", hole, ok)
	}
	if !slices.Equal(s.Rings[0], before) {
		t.Errorf("the polygon changed: %v", s.Rings[0])
	}
}

// TestPointNIndexes: ST_PointN counts from 1, and from the end when
// negative; 0 and indexes past either end find nothing.
func TestPointNIndexes(t *testing.T) {
	s, err := ParseWKT("LINESTRING M (0 0 5,1 1 6,2 2 7)")
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int][]float64{1: {0, 0, 5}, 3: {2, 2, 7}, -1: {2, 2, 7}, -3: {0, 0, 5}, 0: nil, 4: nil, -4: nil} {
		p, ok := s.PointN(n)
		if ok != (want != nil) || ok && (!slices.Equal(p.Coords, want) || !p.M || p.Z) {
			t.Errorf("PointN(%d) = %+v, %v; want %v", n, p, ok, want)
		}
	}
}
