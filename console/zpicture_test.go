package console

import (
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/zproxy/zproxy/zorder"
)

// TestRangeBlocks: the blocks of a box's exact cover are boxes that tile
// the query box, on layouts with and without leads.
func TestRangeBlocks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		attrs []zorder.Attr
		box   zorder.Box
	}{
		{"2-D square", []zorder.Attr{{Type: zorder.TypeUint, Width: 6}, {Type: zorder.TypeUint, Width: 6}},
			zorder.Box{{Lo: 5, Hi: 20}, {Lo: 9, Hi: 33}}},
		{"2-D unequal widths", []zorder.Attr{{Type: zorder.TypeUint, Width: 8}, {Type: zorder.TypeUint, Width: 5}},
			zorder.Box{{Lo: 100, Hi: 140}, {Lo: 3, Hi: 17}}},
		{"3-D with a lead", []zorder.Attr{{Type: zorder.TypeUint, Width: 5, Lead: 2}, {Type: zorder.TypeUint, Width: 5}, {Type: zorder.TypeUint, Width: 4}},
			zorder.Box{{Lo: 3, Hi: 20}, {Lo: 0, Hi: 31}, {Lo: 5, Hi: 9}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := zorder.MustSchema(tc.attrs...)
			var volume float64
			exact, ok := s.ExactRanges(tc.box, 10000)
			if !ok {
				t.Fatal("no exact cover")
			}
			for _, r := range exact {
				blocks, err := rangeBlocks(s, hex.EncodeToString(r.Lo), hex.EncodeToString(r.Hi))
				if err != nil {
					t.Fatal(err)
				}
				for _, b := range blocks {
					v := 1.0
					for d := range tc.attrs {
						if b[0][d] < tc.box[d].Lo || b[1][d] > tc.box[d].Hi || b[0][d] > b[1][d] {
							t.Fatalf("block %v..%v leaves the box %v", b[0], b[1], tc.box)
						}
						v *= float64(b[1][d] - b[0][d] + 1)
					}
					volume += v
				}
			}
			want := 1.0
			for _, iv := range tc.box {
				want *= float64(iv.Hi - iv.Lo + 1)
			}
			if volume != want {
				t.Errorf("the blocks hold %v codes, the box %v", volume, want)
			}
		})
	}
}

// TestPictureOf draws a node as EXPLAIN (VERBOSE, FORMAT JSON) gives it:
// the box as fractions of the data's extent, a cell per block.
func TestPictureOf(t *testing.T) {
	s := zorder.MustSchema(zorder.Attr{Type: zorder.TypeUint, Width: 4}, zorder.Attr{Type: zorder.TypeUint, Width: 4})
	box := zorder.Box{{Lo: 4, Hi: 7}, {Lo: 8, Hi: 11}}
	var ranges []any
	for _, r := range s.Ranges(box, 4) {
		ranges = append(ranges, map[string]any{"Start": hex.EncodeToString(r.Lo), "End": hex.EncodeToString(r.Hi), "Items Read": 3.0})
	}
	attr := func(name string, iv zorder.Interval) map[string]any {
		return map[string]any{"Name": name, "Bits": 4.0, "Lead": 0.0, "Box Low": fmt.Sprint(iv.Lo), "Box High": fmt.Sprint(iv.Hi),
			"Box Low Value": fmt.Sprint(iv.Lo), "Box High Value": fmt.Sprint(iv.Hi), "Data Low": "0", "Data High": "15",
			"Data Low Value": "0", "Data High Value": "15"}
	}
	node := map[string]any{"Relation Name": "t", "Index Name": "t_z", "zproxy Items Read": 3.0, "Actual Rows": 2.0,
		"zproxy Z-order Attributes": []any{attr("a", box[0]), attr("b", box[1])}, "zproxy Z-order Ranges": ranges}
	pic, err := pictureOf(node)
	if err != nil {
		t.Fatal(err)
	}
	if pic.X.Name != "a" || pic.X.From != 0.25 || pic.X.To != 0.5 || pic.Y == nil || pic.Y.From != 0.5 || pic.Y.To != 0.75 {
		t.Errorf("axes: %+v %+v", pic.X, pic.Y)
	}
	if pic.Cells == 0 || pic.Cells != pic.Shown || len(pic.Ranges) != len(ranges) || pic.Ranges[0].Items != 3 {
		t.Errorf("picture: %+v", pic)
	}
	// The box is one aligned 4×4 block: one range, one cell, the box.
	if len(pic.Ranges) == 1 && (len(pic.Ranges[0].Cells) != 1 || pic.Ranges[0].Cells[0] != [4]float64{0.25, 0.5, 0.5, 0.75}) {
		t.Errorf("cells: %v", pic.Ranges[0].Cells)
	}
}
