package console

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"sort"
	"strconv"

	"github.com/zproxy/zproxy/zorder"
)

// maxCells bounds the rectangles one picture draws: a range of a 192-bit
// space decomposes into up to 384 aligned cells, and a budget of 256 ranges
// would make a picture no browser draws quickly. The largest are kept.
const maxCells = 3000

// Picture is a Z-order read drawn on two of its index's attributes: the
// data's extent is the unit square, the query box and each Z-address
// range's cells are rectangles in it (fractions of the extent, y up).
type Picture struct {
	Relation string `json:"relation"`
	Index    string `json:"index"`
	// X and Y are the attributes drawn (Y is nil for a one-attribute
	// index: the picture is a strip); Others are the rest, with their box.
	X      PictureAxis   `json:"x"`
	Y      *PictureAxis  `json:"y"`
	Others []PictureAxis `json:"others"`
	// Extent says what the unit square is: the index's data bounds, or
	// the attributes' whole code space when the index keeps no bounds.
	Extent string         `json:"extent"`
	Ranges []PictureRange `json:"ranges"`
	// Cells counts the rectangles of all ranges; Shown those drawn.
	Cells int `json:"cells"`
	Shown int `json:"shown"`
	// ItemsRead is the scan's items (EXPLAIN ANALYZE), -1 when not run.
	ItemsRead int64 `json:"itemsRead"`
	Rows      int64 `json:"rows"`
}

// PictureAxis is one attribute: its extent's and box's values, and the
// box as fractions of the extent.
type PictureAxis struct {
	Name       string  `json:"name"`
	ExtentLow  string  `json:"extentLow"`
	ExtentHigh string  `json:"extentHigh"`
	BoxLow     string  `json:"boxLow"`
	BoxHigh    string  `json:"boxHigh"`
	From       float64 `json:"from"`
	To         float64 `json:"to"`
}

// PictureRange is one Z-address range: its addresses, the items the scan
// read in it (-1 without ANALYZE) and its cells as [x0, y0, x1, y1].
type PictureRange struct {
	Start string       `json:"start"`
	End   string       `json:"end"`
	Items int64        `json:"items"`
	Cells [][4]float64 `json:"cells"`
}

// zattr is an attribute as EXPLAIN (VERBOSE, FORMAT JSON) gives it.
type zattr struct {
	name             string
	bits, lead       int
	box, data        zorder.Interval
	hasData          bool
	boxLow, boxHigh  string
	dataLow, dataHig string
}

// pictureOf draws the Z-order scan node of an EXPLAIN (VERBOSE, FORMAT
// JSON) plan: the node's "zproxy Z-order Attributes" and "zproxy Z-order
// Ranges" keys (optimizer.zorderProps) are all it reads.
func pictureOf(node map[string]any) (*Picture, error) {
	rawAttrs, _ := node["zproxy Z-order Attributes"].([]any)
	rawRanges, _ := node["zproxy Z-order Ranges"].([]any)
	if len(rawAttrs) == 0 {
		return nil, fmt.Errorf("the node has no Z-order attributes")
	}
	attrs := make([]zattr, len(rawAttrs))
	schemaAttrs := make([]zorder.Attr, len(rawAttrs))
	hasData := true
	for i, ra := range rawAttrs {
		m, _ := ra.(map[string]any)
		a := zattr{name: str(m["Name"]), bits: int(num(m["Bits"])), lead: int(num(m["Lead"])),
			boxLow: str(m["Box Low Value"]), boxHigh: str(m["Box High Value"]),
			dataLow: str(m["Data Low Value"]), dataHig: str(m["Data High Value"])}
		var err error
		if a.box, err = interval(m["Box Low"], m["Box High"]); err != nil {
			return nil, fmt.Errorf("attribute %s: %w", a.name, err)
		}
		if m["Data Low"] != nil {
			if a.data, err = interval(m["Data Low"], m["Data High"]); err != nil {
				return nil, fmt.Errorf("attribute %s: %w", a.name, err)
			}
			a.hasData = true
		} else {
			hasData = false
		}
		attrs[i] = a
		// The layout depends on the widths and leads alone; the type
		// only chooses a default width, and the width is given.
		schemaAttrs[i] = zorder.Attr{Name: a.name, Type: zorder.TypeUint, Width: a.bits, Lead: a.lead}
	}
	schema, err := zorder.NewSchema(schemaAttrs...)
	if err != nil {
		return nil, err
	}
	extent := make([]zorder.Interval, len(attrs))
	for i, a := range attrs {
		extent[i] = zorder.Interval{Lo: 0, Hi: maxCode(a.bits)}
		if hasData {
			extent[i] = a.data
		}
	}
	pic := &Picture{Relation: str(node["Relation Name"]), Index: str(node["Index Name"]), Extent: "data bounds",
		ItemsRead: -1, Rows: -1, Others: []PictureAxis{}, Ranges: []PictureRange{}}
	if !hasData {
		pic.Extent = "code space (the index keeps no data bounds)"
	}
	if v, ok := node["zproxy Items Read"]; ok {
		pic.ItemsRead = int64(num(v))
	}
	if v, ok := node["Actual Rows"]; ok {
		pic.Rows = int64(num(v))
	}
	// Draw the attributes the box bounds most tightly.
	order := make([]int, len(attrs))
	for i := range order {
		order[i] = i
	}
	share := func(d int) float64 {
		return fraction(attrs[d].box.Hi, extent[d]) - fraction(attrs[d].box.Lo, extent[d])
	}
	sort.SliceStable(order, func(i, j int) bool { return share(order[i]) < share(order[j]) })
	dx, dy := order[0], -1
	if len(order) > 1 {
		dx, dy = min(order[0], order[1]), max(order[0], order[1]) // keep the index's order
	}
	axis := func(d int) PictureAxis {
		a := attrs[d]
		ax := PictureAxis{Name: a.name, BoxLow: a.boxLow, BoxHigh: a.boxHigh,
			From: fraction(a.box.Lo, extent[d]), To: fraction(a.box.Hi+1, extent[d])}
		if a.box.Hi == ^uint64(0) {
			ax.To = fraction(a.box.Hi, extent[d])
		}
		ax.ExtentLow, ax.ExtentHigh = a.dataLow, a.dataHig
		if !hasData {
			ax.ExtentLow, ax.ExtentHigh = "(lowest code)", "(highest code)"
		}
		return ax
	}
	pic.X = axis(dx)
	if dy >= 0 {
		y := axis(dy)
		pic.Y = &y
	}
	for d := range attrs {
		if d != dx && d != dy {
			pic.Others = append(pic.Others, axis(d))
		}
	}

	type cellRef struct {
		r    int
		c    [4]float64
		area float64
	}
	var all []cellRef
	for i, rr := range rawRanges {
		m, _ := rr.(map[string]any)
		pr := PictureRange{Start: str(m["Start"]), End: str(m["End"]), Items: -1}
		if v, ok := m["Items Read"]; ok {
			pr.Items = int64(num(v))
		}
		blocks, err := rangeBlocks(schema, pr.Start, pr.End)
		if err != nil {
			return nil, fmt.Errorf("range %d: %w", i+1, err)
		}
		for _, b := range blocks {
			c := [4]float64{fraction(b[0][dx], extent[dx]), 0, fraction(b[1][dx]+1, extent[dx]), 1}
			if b[1][dx] == ^uint64(0) {
				c[2] = fraction(b[1][dx], extent[dx])
			}
			if dy >= 0 {
				c[1], c[3] = fraction(b[0][dy], extent[dy]), fraction(b[1][dy]+1, extent[dy])
				if b[1][dy] == ^uint64(0) {
					c[3] = fraction(b[1][dy], extent[dy])
				}
			}
			if c[2] <= c[0] || c[3] <= c[1] {
				continue // outside the extent
			}
			all = append(all, cellRef{r: i, c: c, area: (c[2] - c[0]) * (c[3] - c[1])})
		}
		pic.Ranges = append(pic.Ranges, pr)
	}
	pic.Cells = len(all)
	if len(all) > maxCells {
		sort.SliceStable(all, func(i, j int) bool { return all[i].area > all[j].area })
		all = all[:maxCells]
	}
	pic.Shown = len(all)
	for _, c := range all {
		pic.Ranges[c.r].Cells = append(pic.Ranges[c.r].Cells, c.c)
	}
	for i := range pic.Ranges {
		if pic.Ranges[i].Cells == nil {
			pic.Ranges[i].Cells = [][4]float64{}
		}
	}
	return pic, nil
}

// rangeBlocks splits the Z-address range [start, end) (hex; "" is the
// start or the end of the address space) into the aligned blocks it is
// made of, largest first from the start, each as the lowest and highest
// codes of every attribute. An aligned block fixes the address's top bits
// and leaves the rest free; the free bits are the low bits of every
// attribute (each attribute's bits run from its top bit down the
// address), so a block is a box: the product of its attributes' code
// intervals, whose ends are its first and last addresses decoded.
func rangeBlocks(s *zorder.Schema, start, end string) ([][2][]uint64, error) {
	bits := s.Bits()
	pad := uint(s.AddrLen()*8 - bits)
	z := func(h string, dflt *big.Int) (*big.Int, error) {
		if h == "" {
			return dflt, nil
		}
		b, err := hex.DecodeString(h)
		if err != nil {
			return nil, fmt.Errorf("address %q: %w", h, err)
		}
		full := make([]byte, s.AddrLen())
		copy(full, b) // a key longer than the address carries the row's key: cut it
		v := new(big.Int).SetBytes(full)
		return v.Rsh(v, pad), nil
	}
	top := new(big.Int).Lsh(big.NewInt(1), uint(bits))
	a, err := z(start, new(big.Int))
	if err != nil {
		return nil, err
	}
	b, err := z(end, top)
	if err != nil {
		return nil, err
	}
	if b.Cmp(top) > 0 {
		b = top
	}
	addr := func(v *big.Int) []byte {
		w := new(big.Int).Lsh(v, pad)
		out := make([]byte, s.AddrLen())
		return w.FillBytes(out)
	}
	one := big.NewInt(1)
	var out [][2][]uint64
	for a.Cmp(b) < 0 {
		k := int(a.TrailingZeroBits())
		if a.Sign() == 0 {
			k = bits
		}
		size := new(big.Int)
		for ; ; k-- {
			size.Lsh(one, uint(k))
			if new(big.Int).Add(a, size).Cmp(b) <= 0 {
				break
			}
		}
		last := new(big.Int).Add(a, size)
		last.Sub(last, one)
		lo, err := s.Decode(addr(a))
		if err != nil {
			return nil, err
		}
		hi, err := s.Decode(addr(last))
		if err != nil {
			return nil, err
		}
		out = append(out, [2][]uint64{lo, hi})
		a.Add(a, size)
		if len(out) > 4*bits {
			return nil, fmt.Errorf("range [%s, %s) splits into too many blocks", start, end)
		}
	}
	return out, nil
}

// fraction places a code within an extent: 0 at its low end, 1 past its
// high end, clamped.
func fraction(code uint64, ext zorder.Interval) float64 {
	if code <= ext.Lo {
		return 0
	}
	span := float64(ext.Hi-ext.Lo) + 1
	f := float64(code-ext.Lo) / span
	return min(f, 1)
}

func maxCode(bits int) uint64 {
	if bits >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(bits) - 1
}

func interval(lo, hi any) (zorder.Interval, error) {
	l, err := strconv.ParseUint(str(lo), 10, 64)
	if err != nil {
		return zorder.Interval{}, fmt.Errorf("code %v: %w", lo, err)
	}
	h, err := strconv.ParseUint(str(hi), 10, 64)
	if err != nil {
		return zorder.Interval{}, fmt.Errorf("code %v: %w", hi, err)
	}
	return zorder.Interval{Lo: l, Hi: h}, nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}
