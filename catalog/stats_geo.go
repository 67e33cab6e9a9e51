package catalog

import (
	"math"

	"github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// EstimatedExtent is a geometry column's estimated extent as PostGIS 3.3's
// ANALYZE computes it from the sampled values (gserialized_estimate.c,
// compute_gserialized_stats_mode in 2D mode), for ST_EstimatedExtent:
// each non-empty, finite value's box in float4, rounded outward as
// gserialized_get_gbox_p reads it, the boxes lying wholly outside
// their mean bounds ± 3.25 standard deviations dropped as deviants, the
// union of the others widened by 1% of its size in each dimension. Its
// arithmetic is PostGIS's, in float4 where PostGIS's ND_BOX is, so that
// the box is PostGIS's own when the sample holds the same rows. nil when
// no value has a box.
func EstimatedExtent(vals []sqltypes.Value) *[4]float64 {
	type ndBox struct{ min, max [2]float32 }
	boxes := make([]ndBox, 0, len(vals))
	var sum ndBox
	extent := ndBox{min: [2]float32{math.MaxFloat32, math.MaxFloat32}, max: [2]float32{-math.MaxFloat32, -math.MaxFloat32}}
	for _, v := range vals {
		g, err := v.Geom()
		if err != nil {
			continue
		}
		b, ok := g.Shape.Bounds()
		if !ok || !finiteBox(b) {
			continue
		}
		f := b.Float4()
		nb := ndBox{min: [2]float32{float32(f.MinX), float32(f.MinY)}, max: [2]float32{float32(f.MaxX), float32(f.MaxY)}}
		boxes = append(boxes, nb)
		for d := range 2 {
			extent.min[d], extent.max[d] = min(extent.min[d], nb.min[d]), max(extent.max[d], nb.max[d])
			sum.min[d] += nb.min[d]
			sum.max[d] += nb.max[d]
		}
	}
	if len(boxes) == 0 {
		return nil
	}
	n := float32(len(boxes))
	var histo ndBox
	for d := range 2 {
		avgMin, avgMax := sum.min[d]/n, sum.max[d]/n
		var sdMin, sdMax float32
		for _, b := range boxes {
			// (Conversions keep each product rounded to float4, unfused.)
			sdMin += float32((b.min[d] - avgMin) * (b.min[d] - avgMin))
			sdMax += float32((b.max[d] - avgMax) * (b.max[d] - avgMax))
		}
		sdMin = float32(math.Sqrt(float64(sdMin / n)))
		sdMax = float32(math.Sqrt(float64(sdMax / n)))
		const sdFactor = 3.25
		histo.min[d] = float32(math.Max(float64(avgMin)-sdFactor*float64(sdMin), float64(extent.min[d])))
		histo.max[d] = float32(math.Min(float64(avgMax)+sdFactor*float64(sdMax), float64(extent.max[d])))
	}
	kept := ndBox{min: [2]float32{math.MaxFloat32, math.MaxFloat32}, max: [2]float32{-math.MaxFloat32, -math.MaxFloat32}}
	for _, b := range boxes {
		if b.min[0] > histo.max[0] || b.max[0] < histo.min[0] || b.min[1] > histo.max[1] || b.max[1] < histo.min[1] {
			continue // a hard deviant
		}
		for d := range 2 {
			kept.min[d], kept.max[d] = min(kept.min[d], b.min[d]), max(kept.max[d], b.max[d])
		}
	}
	for d := range 2 {
		// nd_box_expand by 1%: the size in float4, the step in doubles.
		size := float64(kept.max[d] - kept.min[d])
		if size <= 0 {
			continue
		}
		kept.min[d] = float32(float64(kept.min[d]) - size*0.01/2)
		kept.max[d] = float32(float64(kept.max[d]) + size*0.01/2)
	}
	return &[4]float64{float64(kept.min[0]), float64(kept.min[1]), float64(kept.max[0]), float64(kept.max[1])}
}

// unionFloat4Box widens b ([xmin, ymin, xmax, ymax], nil for none) to
// geometry value v's box rounded outward to float4, as a PostGIS gist
// index's keys hold it; an empty or non-finite value leaves it as it is.
func unionFloat4Box(b *[4]float64, v sqltypes.Value) *[4]float64 {
	g, err := v.Geom()
	if err != nil {
		return b
	}
	box, ok := g.Shape.Bounds()
	if !ok || !finiteBox(box) {
		return b
	}
	f := box.Float4()
	if b == nil {
		return &[4]float64{f.MinX, f.MinY, f.MaxX, f.MaxY}
	}
	b[0], b[1], b[2], b[3] = min(b[0], f.MinX), min(b[1], f.MinY), max(b[2], f.MaxX), max(b[3], f.MaxY)
	return b
}

// finiteBox reports whether b's sides are all finite (gbox_is_valid).
func finiteBox(b geo.Box) bool {
	for _, f := range []float64{b.MinX, b.MinY, b.MaxX, b.MaxY} {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}
