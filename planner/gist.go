package planner

import (
	"fmt"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
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
// Other gist indexes (network types, polygons, several columns) are 0A000.

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
	for i, k := range ix.Columns {
		if k.Column < 0 {
			return unsupported("gist indexes over expressions are not supported")
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
	if typ := t.Columns[col].Type; typ.ID == sqltypes.Geometry {
		// Points only: other shapes need an extent per entry (XZ-order).
		if kind, _, _, _ := typ.GeomTypmodParts(); kind != geo.Point {
			return pgerr.New(pgerr.FeatureNotSupported, "gist indexes over geometry are supported for geometry(Point) columns only").
				WithHint("Declare the column geometry(Point) or geometry(Point, srid).")
		}
	}
	ix.Columns = nil
	name := sqltypes.QuoteIdent(t.Columns[col].Name)
	for _, key := range keys {
		sql := fmt.Sprintf(key, name)
		e, err := b.bindIndexExpr(t, sql, false)
		if err != nil {
			return err
		}
		typ := e.Type()
		ix.Columns = append(ix.Columns, catalog.KeyColumn{Column: -1, Expr: b.storedIndexText(t, e, sql, false), ExprType: &typ})
	}
	ix.ExprColumns = []int{col}
	ix.Gist = &catalog.GistKey{Column: col, Opclass: opclass}
	return nil
}

// isPlanar reports whether t is a planar point type.
func isPlanar(t sqltypes.Type) bool { _, ok := builtins.PlanarTypeOf(t); return ok }

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
	sub := sqltypes.RangeSubtype(typ.ID)
	switch sub.ID {
	case sqltypes.Int4:
		return "(-2147483648)::integer", "2147483647"
	case sqltypes.Int8:
		return "(-9223372036854775808)::bigint", "9223372036854775807::bigint"
	}
	return "'-infinity'::" + sub.String(), "'infinity'::" + sub.String()
}
