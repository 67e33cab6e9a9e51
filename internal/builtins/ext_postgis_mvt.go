package builtins

import (
	"errors"
	"math"
	"strconv"
	"strings"

	gis "github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Mapbox vector tiles as PostGIS 3.3 makes them: ST_AsMVTGeom, which maps
// a geometry into a tile's integer coordinates (internal/geo/mvt.go), and
// the ST_AsMVT aggregate, which encodes its rows as one tile layer in the
// protocol buffer form protobuf-c writes (fields in number order, packed
// repeated integers, empty repeated fields left out). The executor's
// mvtAgg feeds an MVTLayer.
func init() {
	tGeom, tBox, tInt, tBool, tText := sqltypes.TypeGeometry, sqltypes.TypeBox2D, sqltypes.TypeInt4, sqltypes.TypeBool, sqltypes.TypeText
	o := func(params ...sqltypes.Type) Overload {
		ps := make([]Param, len(params))
		for i, p := range params {
			ps[i] = T(p)
		}
		// Not strict: NULL options take their defaults, NULL bounds are
		// an error.
		return Overload{Params: ps, Result: Returns(tGeom), Volatility: Immutable, CalledOnNull: true,
			Doc: "the geometry in the tile coordinate space of bounds, clipped to it with a buffer", Eval: asMVTGeom}
	}
	Register("st_asmvtgeom", o(tGeom, tBox), o(tGeom, tBox, tInt), o(tGeom, tBox, tInt, tInt), o(tGeom, tBox, tInt, tInt, tBool))
	paramNames["st_asmvtgeom"] = paramInfo{names: []string{"geom", "bounds", "extent", "buffer", "clip_geom"}, optional: 3}

	RegisterAggregate(&Func{Name: "st_asmvt", Overloads: []Overload{
		Sig("the rows as a Mapbox vector tile layer", sqltypes.TypeBytea, AnyElement),
		Sig("the rows as a Mapbox vector tile layer", sqltypes.TypeBytea, AnyElement, tText),
		Sig("the rows as a Mapbox vector tile layer", sqltypes.TypeBytea, AnyElement, tText, tInt),
		Sig("the rows as a Mapbox vector tile layer", sqltypes.TypeBytea, AnyElement, tText, tInt, tText),
		Sig("the rows as a Mapbox vector tile layer", sqltypes.TypeBytea, AnyElement, tText, tInt, tText, tText),
	}, Type: func(c *Call) (sqltypes.Type, error) {
		if len(c.Args) < 1 || len(c.Args) > 5 || c.Args[0].ID != sqltypes.Record || c.Args[0].Composite == nil {
			return errNoOverload()
		}
		for i, a := range c.Args[1:] {
			want := sqltypes.Text
			if i == 1 {
				want = sqltypes.Int4
			}
			// The binder hands an untyped literal (NULL, '4096') over as
			// text, so text is taken for the extent too and read there.
			if a.ID != want && a.ID != sqltypes.Unknown && a.ID != sqltypes.Text && a.ID != sqltypes.Varchar &&
				!(want == sqltypes.Int4 && a.ID == sqltypes.Int2) {
				return errNoOverload()
			}
		}
		return sqltypes.TypeBytea, nil
	}})
}

// asMVTGeom is ST_AsMVTGeom(geom, bounds, extent, buffer, clip_geom).
func asMVTGeom(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
	if a[0].IsNull() {
		return sqltypes.Null, nil
	}
	if a[1].IsNull() {
		return sqltypes.Null, pgerr.Raised("ST_AsMVTGeom: Geometric bounds cannot be null")
	}
	g, err := geomOf(a[0])
	if err != nil {
		return sqltypes.Null, err
	}
	b, err := a[1].Box2D()
	if err != nil {
		return sqltypes.Null, err
	}
	if b.MaxX-b.MinX <= 0 || b.MaxY-b.MinY <= 0 {
		return sqltypes.Null, pgerr.Raised("ST_AsMVTGeom: Geometric bounds are too small")
	}
	extent, buffer, clip := int64(4096), int64(256), true
	if len(a) > 2 && !a[2].IsNull() {
		extent = a[2].I
	}
	if len(a) > 3 && !a[3].IsNull() {
		buffer = a[3].I
	}
	if len(a) > 4 && !a[4].IsNull() {
		clip = a[4].Bool()
	}
	if extent <= 0 {
		return sqltypes.Null, pgerr.Raised("ST_AsMVTGeom: Extent must be greater than 0")
	}
	// PostGIS reads the buffer as an unsigned int: a negative one is a
	// huge buffer.
	out, ok, err := gis.MVTGeom(g, b, int32(extent), uint32(int32(buffer)), clip)
	var dimErr gis.MVTDimensionError
	switch {
	case errors.Is(err, gis.ErrMVTPolygon):
		return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "ST_AsMVTGeom of polygons is not supported: PostGIS clips and repairs them with wagyu and GEOS")
	case errors.As(err, &dimErr):
		return sqltypes.Null, pgerr.Raised("%s", dimErr.Error())
	case err != nil:
		return sqltypes.Null, err
	case !ok:
		return sqltypes.Null, nil
	}
	return sqltypes.NewGeometry(out), nil
}

// MVTLayer accumulates the rows of an ST_AsMVT aggregate: the layer's
// options, read from its first row, and its features, keys and values.
type MVTLayer struct {
	started  bool
	name     string
	extent   uint32
	geomCol  int
	idCol    int // -1: none
	keyOf    []int
	keys     []string
	keyIndex map[string]int
	values   [][]byte
	valIndex map[string]int
	features [][]byte
	fields   []sqltypes.CompositeField
	style    sqltypes.Style
}

// Add takes one row of the aggregate: args are its arguments (the record
// first), rowType the record's type. The layer's options come from the
// first row, as PostGIS reads them once; rows with a NULL geometry add no
// feature.
func (l *MVTLayer) Add(args []sqltypes.Value, rowType sqltypes.Type, st sqltypes.Style) error {
	if !l.started {
		if err := l.start(args, rowType, st); err != nil {
			return err
		}
	}
	if args[0].IsNull() {
		return nil
	}
	row := args[0].Array().Elems
	if l.geomCol >= len(row) || row[l.geomCol].IsNull() {
		return nil
	}
	g, err := row[l.geomCol].Geom()
	if err != nil {
		return err
	}
	typ, cmds, err := gis.MVTEncode(g.Shape)
	if err != nil {
		return pgerr.Raised("%s", err.Error())
	}
	var tags []uint64
	for i, f := range l.fields {
		if i == l.geomCol || i == l.idCol || i >= len(row) || row[i].IsNull() {
			continue
		}
		v := row[i]
		if f.Type.ID == sqltypes.JSONB {
			tags = l.addJSONB(tags, v.JSONB())
			continue
		}
		val := l.encodeValue(f.Type, v)
		tags = append(tags, uint64(l.keyOf[i]), uint64(l.valueIndex(val)))
	}
	var feat pbuf
	if l.idCol >= 0 && l.idCol < len(row) && !row[l.idCol].IsNull() && row[l.idCol].I >= 0 {
		feat.varintField(1, uint64(row[l.idCol].I))
	}
	feat.packedField(2, tags)
	feat.varintField(3, uint64(typ))
	c64 := make([]uint64, len(cmds))
	for i, c := range cmds {
		c64[i] = uint64(c)
	}
	feat.packedField(4, c64)
	l.features = append(l.features, feat)
	return nil
}

// start reads the layer's options and the record's columns: the geometry
// column (the one named, else the first geometry), the feature id column
// (an integer one), and the keys of the other columns, jsonb ones
// excepted, whose keys come from their objects.
func (l *MVTLayer) start(args []sqltypes.Value, rowType sqltypes.Type, st sqltypes.Style) error {
	l.started = true
	l.style = st
	l.name, l.extent = "default", 4096
	l.geomCol, l.idCol = -1, -1
	if len(args) > 1 && !args[1].IsNull() {
		l.name = args[1].S
	}
	if len(args) > 2 && !args[2].IsNull() {
		if args[2].K == sqltypes.KindText {
			n, err := strconv.ParseInt(strings.TrimSpace(args[2].S), 10, 32)
			if err != nil {
				return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type integer: \"%s\"", args[2].S)
			}
			args[2] = sqltypes.NewInt(n)
		}
		if args[2].I == 0 {
			return pgerr.Raised("mvt_agg_init_context: extent cannot be 0")
		}
		l.extent = uint32(int32(args[2].I))
	}
	geomName, idName := "", ""
	named, withID := false, false
	if len(args) > 3 && !args[3].IsNull() {
		geomName, named = args[3].S, true
	}
	if len(args) > 4 && !args[4].IsNull() {
		idName, withID = args[4].S, true
	}
	if rowType.Composite != nil {
		l.fields = rowType.Composite.Fields
	}
	for i, f := range l.fields {
		if l.geomCol < 0 && f.Type.ID == sqltypes.Geometry && (!named || f.Name == geomName) {
			l.geomCol = i
		}
	}
	for i, f := range l.fields {
		if withID && l.idCol < 0 && f.Name == idName {
			if f.Type.ID != sqltypes.Int2 && f.Type.ID != sqltypes.Int4 && f.Type.ID != sqltypes.Int8 {
				break
			}
			l.idCol = i
		}
	}
	if l.geomCol < 0 {
		return pgerr.Raised("parse_column_keys: no geometry column found")
	}
	if withID && l.idCol < 0 {
		return pgerr.Raised("mvt_agg_transfn: Could not find column '%s' of integer type", idName)
	}
	l.keyIndex = map[string]int{}
	l.valIndex = map[string]int{}
	l.keyOf = make([]int, len(l.fields))
	for i, f := range l.fields {
		if i == l.geomCol || i == l.idCol || f.Type.ID == sqltypes.JSONB {
			continue
		}
		// Columns of one name are separate keys; a jsonb key finds the
		// first.
		l.keyOf[i] = len(l.keys)
		if _, ok := l.keyIndex[f.Name]; !ok {
			l.keyIndex[f.Name] = len(l.keys)
		}
		l.keys = append(l.keys, f.Name)
	}
	return nil
}

// addJSONB appends the tags of a jsonb object's members: every key
// becomes a layer key, but only strings, numbers and booleans values.
func (l *MVTLayer) addJSONB(tags []uint64, j *sqltypes.JSONValue) []uint64 {
	if j == nil || j.Kind != sqltypes.JSONObject {
		return tags
	}
	for i, k := range j.Keys {
		ki, ok := l.keyIndex[k]
		if !ok {
			ki = len(l.keys)
			l.keyIndex[k] = ki
			l.keys = append(l.keys, k)
		}
		var val []byte
		switch e := j.Elems[i]; e.Kind {
		case sqltypes.JSONString:
			val = mvtString(e.Str)
		case sqltypes.JSONBool:
			val = mvtBool(e.Bool)
		case sqltypes.JSONNumber:
			val = mvtJSONNumber(e)
		default:
			continue
		}
		tags = append(tags, uint64(ki), uint64(l.valueIndex(val)))
	}
	return tags
}

// mvtJSONNumber is a jsonb number as PostGIS types it: its text read as
// a long (strtol: the leading integer digits, saturated) and as a double
// (strtod), an integer when the two agree, else a double.
func mvtJSONNumber(e sqltypes.JSONValue) []byte {
	var text string
	if e.Num != nil {
		text = e.Num.Text('f')
	} else {
		text = sqltypes.FormatText(sqltypes.NewJSONB(&e))
	}
	d, _ := strconv.ParseFloat(text, 64)
	l := strtol(text)
	if float64(l) == d {
		return mvtInt(l)
	}
	return mvtDouble(d)
}

// strtol is C's strtol(s, NULL, 10) of a number's text: its sign and
// leading digits, saturated to the int64 range.
func strtol(s string) int64 {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "+-")
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	digits := s[:end]
	if digits == "" {
		return 0
	}
	if neg {
		digits = "-" + digits
	}
	v, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		if neg {
			return math.MinInt64
		}
		return math.MaxInt64
	}
	return v
}

// encodeValue is a column value as a tile Value message: integers as
// uint (non-negative) or sint, float4 as float, float8 as double, bool,
// anything else as the string its output function prints.
func (l *MVTLayer) encodeValue(t sqltypes.Type, v sqltypes.Value) []byte {
	switch t.ID {
	case sqltypes.Int2, sqltypes.Int4, sqltypes.Int8:
		return mvtInt(v.I)
	case sqltypes.Float4:
		var b pbuf
		b.tag(2, 5)
		bits := math.Float32bits(float32(v.F))
		if v.F != v.F {
			bits = 0x7fc00000 // PostgreSQL's NaN, whatever the payload here
		}
		b = append(b, byte(bits), byte(bits>>8), byte(bits>>16), byte(bits>>24))
		return b
	case sqltypes.Float8:
		return mvtDouble(v.F)
	case sqltypes.Bool:
		return mvtBool(v.Bool())
	}
	return mvtString(string(sqltypes.AppendTextStyled(nil, t, v, l.style)))
}

func mvtString(s string) []byte {
	var b pbuf
	b.bytesField(1, []byte(s))
	return b
}

func mvtDouble(d float64) []byte {
	var b pbuf
	b.tag(3, 1)
	bits := math.Float64bits(d)
	if math.IsNaN(d) {
		bits = 0x7ff8000000000000 // PostgreSQL's NaN, whatever the payload here
	}
	for i := 0; i < 8; i++ {
		b = append(b, byte(bits>>(8*i)))
	}
	return b
}

func mvtInt(v int64) []byte {
	var b pbuf
	if v >= 0 {
		b.varintField(5, uint64(v))
	} else {
		b.varintField(6, uint64(v<<1)^uint64(v>>63))
	}
	return b
}

func mvtBool(v bool) []byte {
	var b pbuf
	n := uint64(0)
	if v {
		n = 1
	}
	b.varintField(7, n)
	return b
}

// valueIndex is the index of an encoded Value in the layer's values, the
// value added when new: equal values (same type, same bits) share one.
func (l *MVTLayer) valueIndex(val []byte) int {
	if i, ok := l.valIndex[string(val)]; ok {
		return i
	}
	i := len(l.values)
	l.valIndex[string(val)] = i
	l.values = append(l.values, val)
	return i
}

// Bytes is the aggregate's result: the tile holding the layer, or an
// empty bytea when no row had a geometry, as PostGIS returns.
func (l *MVTLayer) Bytes() []byte {
	if len(l.features) == 0 {
		return []byte{}
	}
	var layer pbuf
	layer.bytesField(1, []byte(l.name))
	for _, f := range l.features {
		layer.bytesField(2, f)
	}
	for _, k := range l.keys {
		layer.bytesField(3, []byte(k))
	}
	for _, v := range l.values {
		layer.bytesField(4, v)
	}
	layer.varintField(5, uint64(l.extent))
	layer.varintField(15, 2)
	var tile pbuf
	tile.bytesField(3, layer)
	return tile
}

// pbuf is a protocol buffer message being written.
type pbuf []byte

func (b *pbuf) varint(v uint64) {
	for v >= 0x80 {
		*b = append(*b, byte(v)|0x80)
		v >>= 7
	}
	*b = append(*b, byte(v))
}

// tag writes a field's key: its number and wire type (0 varint, 1
// 64-bit, 2 length-delimited, 5 32-bit).
func (b *pbuf) tag(field, wire int) { b.varint(uint64(field)<<3 | uint64(wire)) }

func (b *pbuf) varintField(field int, v uint64) {
	b.tag(field, 0)
	b.varint(v)
}

func (b *pbuf) bytesField(field int, v []byte) {
	b.tag(field, 2)
	b.varint(uint64(len(v)))
	*b = append(*b, v...)
}

// packedField writes a packed repeated integer field; an empty one is
// left out, as protobuf-c leaves it.
func (b *pbuf) packedField(field int, vs []uint64) {
	if len(vs) == 0 {
		return
	}
	var inner pbuf
	for _, v := range vs {
		inner.varint(v)
	}
	b.bytesField(field, inner)
}
