package planner

import (
	"fmt"
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/zorder"
)

// CREATE INDEX ... USING gist over a column of a planar point type
// (builtins.RegisterPlanarPoint) is a Z-order index over the column's x
// and y (the key expressions its registration gives: (col)[0] and (col)[1]
// for a point, ST_X and ST_Y for a PostGIS point), aligned to the data
// (catalog.GistKey):
// PostgreSQL's R-tree serves boxes and nearest-neighbour searches, and so
// does a Z-order index (optimizer/nearest.go). Over a range column it is a
// Z-order index over the range's two bounds (rangeGistKeys), where a
// range predicate against a constant is a box (optimizer/gistbounds.go).
// Over a geometry column of any other shape, and over box, polygon and
// circle, it is an XZ index (bindXZKey). Other gist indexes (network types,
// several columns) are 0A000.

// checkGistPart refuses what a gist key part cannot have.
func checkGistPart(part *ast.IndexPartSpecification) error {
	if part.Desc {
		return pgerr.New(pgerr.FeatureNotSupported, "access method \"gist\" does not support ASC/DESC options")
	}
	if part.Length > 0 {
		return unsupported("column widths are only supported in Z-order indexes")
	}
	return nil
}

// bindGistKey turns ix, bound with one key column, into the Z-order index
// over that column's coordinates.
func (b *Binder) bindGistKey(t *catalog.Table, ix *catalog.Index, unique bool) error {
	if unique {
		return pgerr.New(pgerr.FeatureNotSupported, "access method \"gist\" does not support unique indexes")
	}
	if len(ix.Columns) == 1 && ix.Columns[0].Column >= 0 && t.Columns[ix.Columns[0].Column].Type.ID == sqltypes.Ltree {
		return b.bindLtreeGist(ix)
	}
	for i, k := range ix.Columns {
		if k.Column < 0 {
			return unsupported("gist indexes over expressions are not supported")
		}
		if typ := t.Columns[k.Column].Type; typ.ID == sqltypes.Geography && len(ix.Columns) == 1 {
			return b.bindGeographyKey(t, ix, k.Column)
		}
		if opclass, ok := shapeOpclasses[t.Columns[k.Column].Type.ID]; ok && t.Columns[k.Column].Type.ID != sqltypes.Array && len(ix.Columns) == 1 {
			// PostgreSQL's own shapes: XZ-ordering of their boxes.
			if named, ok := b.stmt.IndexOpclasses[0]; ok && named != opclass {
				return unsupported("operator class %s is not supported (a gist index over %s is %s)", named, t.Columns[k.Column].Type, opclass)
			}
			return b.bindXZKey(t, ix, k.Column, sqltypes.QuoteIdent(t.Columns[k.Column].Name), opclass, 0)
		}
		if typ := t.Columns[k.Column].Type; typ.IsMultirange() {
			return unsupported("gist indexes over multirange columns are not supported (over a range column they are)")
		} else if !isPlanar(typ) && !typ.IsRange() {
			if named, ok := b.stmt.IndexOpclasses[i]; ok {
				return unsupported("operator class %s is not supported (gist indexes are supported over point columns only)", named)
			}
			return pgerr.New(pgerr.UndefinedObject, "data type %s has no default operator class for access method \"gist\"", typ).
				WithHint("You must specify an operator class for the index or define a default operator class for the data type.")
		}
	}
	if len(ix.Columns) != 1 {
		return unsupported("gist indexes over more than one column are not supported")
	}
	col := ix.Columns[0].Column
	planar, _ := builtins.PlanarTypeOf(t.Columns[col].Type)
	opclass, keys := planar.Opclass, []string{planar.X, planar.Y}
	if typ := t.Columns[col].Type; typ.IsRange() {
		opclass, keys = "range_ops", rangeGistKeys(typ)
	}
	if named, ok := b.stmt.IndexOpclasses[0]; ok && named != opclass {
		return unsupported("operator class %s is not supported (a gist index over %s is %s)", named, t.Columns[col].Type, opclass)
	}
	name := sqltypes.QuoteIdent(t.Columns[col].Name)
	if typ := t.Columns[col].Type; typ.ID == sqltypes.Geometry {
		// Points are a Z-order index over x and y; other shapes have an
		// extent, indexed by XZ-ordering.
		if kind, srid, _, _ := typ.GeomTypmodParts(); kind != geo.Point {
			return b.bindXZKey(t, ix, col, name, opclass, srid)
		}
	}
	sqls := make([]string, len(keys))
	for i, key := range keys {
		sqls[i] = fmt.Sprintf(key, name)
	}
	return b.bindGistExprs(t, ix, &catalog.GistKey{Column: col, Opclass: opclass}, sqls...)
}

// bindLtreeGist makes a gist index over an ltree column (ltree's
// gist_ltree_ops) an ordered index over the column itself: its order is
// ltree_cmp's, so it serves what PostgreSQL's gist class serves that has
// a key range, = < <= > >= and <@ and @> against a constant (a subtree is
// a key range, its ancestors point lookups; optimizer/bounds.go), and the
// rest (~, ?, @) as a filter over the rows, as PostgreSQL rechecks them.
// The catalogs show it as the gist index it was created as.
func (b *Binder) bindLtreeGist(ix *catalog.Index) error {
	if named, ok := b.stmt.IndexOpclasses[0]; ok && named != catalog.LtreeGistOpclass {
		return unsupported("operator class %s is not supported (a gist index over ltree is %s)", named, catalog.LtreeGistOpclass)
	}
	ix.Kind = catalog.KindBTree
	ix.Columns[0].Desc = false
	ix.Gist = &catalog.GistKey{Column: ix.Columns[0].Column, Opclass: catalog.LtreeGistOpclass}
	return nil
}

// bindGistExprs gives ix, a gist index with key g, the key expressions
// sqls over g's column.
func (b *Binder) bindGistExprs(t *catalog.Table, ix *catalog.Index, g *catalog.GistKey, sqls ...string) error {
	ix.Columns = nil
	for _, sql := range sqls {
		e, err := b.bindIndexExpr(t, sql, false)
		if err != nil {
			return err
		}
		typ := e.Type()
		ix.Columns = append(ix.Columns, catalog.KeyColumn{Column: -1, Expr: b.storedIndexText(t, e, sql, false), ExprType: &typ})
	}
	ix.ExprColumns = []int{g.Column}
	ix.Gist = g
	return nil
}

// shapeOpclasses are the gist operator classes of PostgreSQL's shapes,
// indexed by XZ-ordering of their bounding boxes.
var shapeOpclasses = map[sqltypes.TypeID]string{sqltypes.GeoBox: "box_ops", sqltypes.GeoPolygon: "poly_ops", sqltypes.GeoCircle: "circle_ops"}

// isPlanar reports whether t is a planar point type.
func isPlanar(t sqltypes.Type) bool { _, ok := builtins.PlanarTypeOf(t); return ok }

// The worlds of XZ gist indexes, by the column's SRID: a geometry outside
// its index's world is coded as the root, which every query reads, so a
// world too small costs reads, never answers.
var (
	// lonLatWorld is a geographic SRID's (EPSG 4000-4999: 4326, 4269 ...).
	lonLatWorld = zorder.XZ2{MinX: -180, MinY: -90, MaxX: 180, MaxY: 90, Levels: xzLevels}
	// mercatorWorld is EPSG:3857's square.
	mercatorWorld = zorder.XZ2{MinX: -20037508.342789244, MinY: -20037508.342789244, MaxX: 20037508.342789244, MaxY: 20037508.342789244, Levels: xzLevels}
	// planarWorld is every other SRID's, 0 included.
	planarWorld = zorder.XZ2{MinX: -1e6, MinY: -1e6, MaxX: 1e6, MaxY: 1e6, Levels: xzLevels}
)

// xzLevels is the XZ quadtree's depth: cells of 1/2^24 of the world
// (about 2 metres of longitude, 0.12 units of the planar world).
const xzLevels = 24

// bindXZKey makes ix, a gist index over geometry column col of any shape,
// the btree index over the XZ2 code of each row's bounding box
// (builtins.XZ2Func): entries follow every write as any expression
// index's do, and the optimizer turns a spatial predicate's box into the
// code ranges of the cells that can hold a geometry meeting it.
func (b *Binder) bindXZKey(t *catalog.Table, ix *catalog.Index, col int, name, opclass string, srid int32) error {
	world := planarWorld
	switch {
	case srid == 3857 || srid == 900913:
		world = mercatorWorld
	case srid >= 4000 && srid < 5000:
		world = lonLatWorld
	}
	sql := fmt.Sprintf("%s(%s, %s, %s, %s, %s, %d)", builtins.XZ2Func, name, fmtFloat(world.MinX), fmtFloat(world.MinY),
		fmtFloat(world.MaxX), fmtFloat(world.MaxY), world.Levels)
	ix.Kind, ix.Bounds = catalog.KindBTree, false
	return b.bindGistExprs(t, ix, &catalog.GistKey{Column: col, Opclass: opclass, XZ: &world}, sql)
}

// fmtFloat spells a world's bound as a float8 literal.
func fmtFloat(f float64) string {
	return "(" + strconv.FormatFloat(f, 'g', -1, 64) + ")::float8"
}

// bindGeographyKey makes ix, a gist index over geography column col, the
// Z-order index over its points' longitude and latitude: a geography of
// points only (other shapes would need XZ-ordering on the sphere, across
// the antimeridian).
func (b *Binder) bindGeographyKey(t *catalog.Table, ix *catalog.Index, col int) error {
	const opclass = "gist_geography_ops"
	if named, ok := b.stmt.IndexOpclasses[0]; ok && named != opclass {
		return unsupported("operator class %s is not supported (a gist index over geography is %s)", named, opclass)
	}
	if kind, _, _, _ := t.Columns[col].Type.GeomTypmodParts(); kind != geo.Point {
		return pgerr.New(pgerr.FeatureNotSupported, "gist indexes over geography are supported for geography(Point) columns only").
			WithHint("Declare the column geography(Point), or index a geometry column of the shapes.")
	}
	name := sqltypes.QuoteIdent(t.Columns[col].Name)
	return b.bindGistExprs(t, ix, &catalog.GistKey{Column: col, Opclass: opclass, Geography: true},
		fmt.Sprintf("st_x((%s)::geometry)", name), fmt.Sprintf("st_y((%s)::geometry)", name))
}

// rangeGistKeys are the two key expressions (formats of the column's
// name) of a gist index over a column of range type typ: the range's
// lower and upper bound values, of its subtype. An infinite bound is the
// subtype's end (its least or greatest value, or -infinity and infinity),
// and the empty range is the point (greatest, least), which no other
// range reaches: it lies in the box of r <@ q, whose rows it is among,
// and outside those of &&, @>, <<, >>, which it never satisfies. A NULL
// range has NULL keys. Bounds keep their values, not their inclusivity:
// the boxes are drawn to hold both (optimizer/gistbounds.go) and the
// operator rechecks each row.
func rangeGistKeys(typ sqltypes.Type) []string {
	least, greatest := rangeGistEnds(typ)
	return []string{
		"CASE WHEN isempty(%[1]s) THEN " + greatest + " WHEN lower_inf(%[1]s) THEN " + least + " ELSE lower(%[1]s) END",
		"CASE WHEN isempty(%[1]s) THEN " + least + " WHEN upper_inf(%[1]s) THEN " + greatest + " ELSE upper(%[1]s) END",
	}
}

// rangeGistEnds are the least and greatest values of range type typ's
// subtype, as SQL constants: where a gist index's keys put its ranges'
// infinite bounds (rangeGistKeys).
func rangeGistEnds(typ sqltypes.Type) (least, greatest string) {
	sub := sqltypes.RangeSubtype(typ.StripDomain())
	switch sub.ID {
	case sqltypes.Int4:
		return "(-2147483648)::integer", "2147483647"
	case sqltypes.Int8:
		return "(-9223372036854775808)::bigint", "9223372036854775807::bigint"
	}
	return "'-infinity'::" + sub.String(), "'infinity'::" + sub.String()
}
