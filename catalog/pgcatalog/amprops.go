package pgcatalog

import (
	"strings"

	"github.com/zproxy/zproxy/catalog"
	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// pg_indexam_has_property, pg_index_has_property and
// pg_index_column_has_property answer from each access method's
// IndexAmRoutine flags as PostgreSQL 15 sets them (amutils.c's
// indexam_property, with btree's and GiST's amproperty overrides).

// amRoutine is the part of an IndexAmRoutine the property functions read.
type amRoutine struct {
	canOrder, canOrderByOp, canBackward, canUnique, canMultiCol bool
	searchArray, searchNulls, clusterable, canInclude           bool
	getTuple, getBitmap                                         bool
	// canReturn: the AM can return a key column's value (index-only
	// scans); btree always, GiST per operator class (gistColumnProperty).
	canReturn bool
}

// amRoutines are PostgreSQL 15's bthandler, hashhandler, gisthandler and
// ginhandler, and zproxy's Z-order method, which answers as GiST, the
// multidimensional method PostgreSQL has (no column order, no uniqueness,
// several columns, INCLUDE), except that a USING zorder index neither
// orders by distance (a gist index over points does) nor returns a
// column's value from an entry (which holds the interleaved code's bits).
var amRoutines = map[uint32]amRoutine{
	AmBtree: {canOrder: true, canBackward: true, canUnique: true, canMultiCol: true, searchArray: true, searchNulls: true,
		clusterable: true, canInclude: true, getTuple: true, getBitmap: true, canReturn: true},
	AmHash: {canBackward: true, getTuple: true, getBitmap: true},
	AmGist: {canOrderByOp: true, canMultiCol: true, searchNulls: true, clusterable: true, canInclude: true,
		getTuple: true, getBitmap: true, canReturn: true},
	AmGin:    {canMultiCol: true, getBitmap: true},
	AmZOrder: {canMultiCol: true, searchNulls: true, clusterable: true, canInclude: true, getTuple: true, getBitmap: true},
}

// gistClass is a GiST operator class's support: whether it has a distance
// function (8) and a fetch function (9) or no compress function (3), from
// PostgreSQL 15's pg_amproc (the btree_gist classes with that extension).
type gistClass struct{ distance, returnable bool }

var gistClasses = map[string]gistClass{
	"point_ops": {true, true}, "gist_geometry_ops_2d": {true, false},
	"range_ops": {false, true}, "multirange_ops": {false, false},
	"gist_ltree_ops": {false, false},
}

// btreeGistClass is btree_gist's class for a column of type t: every one
// has a fetch function except inet's, cidr's and timetz's; the numeric,
// date and time ones a distance function.
func btreeGistClass(t sqltypes.Type) gistClass {
	switch t.StripDomain().ID {
	case sqltypes.Inet, sqltypes.Cidr, sqltypes.TimeTZ:
		return gistClass{}
	case sqltypes.Int2, sqltypes.Int4, sqltypes.Int8, sqltypes.Float4, sqltypes.Float8, sqltypes.Oid, sqltypes.Money,
		sqltypes.Date, sqltypes.Time, sqltypes.Timestamp, sqltypes.TimestampTZ, sqltypes.Interval:
		return gistClass{distance: true, returnable: true}
	}
	return gistClass{returnable: true}
}

// gistColumnClass is the operator class support of GiST index o's key
// column i.
func gistColumnClass(o *object, i int) gistClass {
	if o.index != nil && o.index.Gist != nil {
		return gistClasses[o.index.Gist.Opclass]
	}
	t := o.cols[i].typ
	switch t.StripDomain().Kind() {
	case sqltypes.KindRange:
		return gistClasses["range_ops"]
	case sqltypes.KindMultirange:
		return gistClasses["multirange_ops"]
	}
	return btreeGistClass(t)
}

// indexKeyCount is how many of index o's columns are key columns (the
// rest are INCLUDE columns).
func indexKeyCount(o *object) int {
	if o.index == nil {
		return len(o.table.PrimaryKey)
	}
	return len(o.index.DeclaredColumns())
}

// indexKey is index o's key column i (0-based), for its DESC option.
func indexKey(o *object, i int) catalog.KeyColumn {
	if o.index == nil {
		return o.table.PrimaryKey[i]
	}
	return o.index.DeclaredColumns()[i]
}

// amProperty answers the three functions: index is nil for
// pg_indexam_has_property, attno 0 for an index-wide property. ok false
// is SQL NULL.
func amProperty(am uint32, index *object, attno int, prop string) (res, ok bool) {
	prop = strings.ToLower(prop) // PostgreSQL matches the name case-insensitively
	natts := 0
	if index != nil {
		natts = len(index.cols)
	}
	if attno < 0 || attno > natts {
		return false, false
	}
	r, known := amRoutines[am]
	if !known {
		return false, false
	}
	// The AM's amproperty overrides, for columns only.
	if attno > 0 {
		switch {
		case am == AmBtree && prop == "returnable":
			return true, true
		case am == AmGist && (prop == "distance_orderable" || prop == "returnable"):
			if attno > indexKeyCount(index) {
				return false, false // no operator class for an INCLUDE column
			}
			c := gistColumnClass(index, attno-1)
			if prop == "distance_orderable" {
				return c.distance, true
			}
			return c.returnable, true
		}
		iskey := !r.canInclude || attno <= indexKeyCount(index)
		// test_indoption: false when the AM cannot order, else the
		// column's DESC / NULLS FIRST bits (zproxy's DESC keys are
		// NULLS FIRST, its ASC keys NULLS LAST, as PostgreSQL's default).
		option := func(wantDesc bool) (bool, bool) {
			if !iskey {
				return false, false
			}
			if !r.canOrder {
				return false, true
			}
			return indexKey(index, attno-1).Desc == wantDesc, true
		}
		switch prop {
		case "asc", "nulls_last":
			return option(false)
		case "desc", "nulls_first":
			return option(true)
		case "orderable":
			return iskey && r.canOrder, true
		case "distance_orderable":
			if !iskey || !r.canOrderByOp {
				return false, true
			}
			return false, false
		case "returnable":
			return r.canReturn, true
		case "search_array":
			return r.searchArray, iskey
		case "search_nulls":
			return r.searchNulls, iskey
		}
		return false, false
	}
	if index != nil {
		switch prop {
		case "clusterable":
			return r.clusterable, true
		case "index_scan":
			return r.getTuple, true
		case "bitmap_scan":
			return r.getBitmap, true
		case "backward_scan":
			return r.canBackward, true
		}
		return false, false
	}
	switch prop {
	case "can_order":
		return r.canOrder, true
	case "can_unique":
		return r.canUnique, true
	case "can_multi_col":
		return r.canMultiCol, true
	case "can_exclude":
		return r.getTuple, true
	case "can_include":
		return r.canInclude, true
	}
	return false, false
}

func registerAmProperties() {
	answer := func(res, ok bool) sqltypes.Value {
		if !ok {
			return sqltypes.Null
		}
		return boolV(res)
	}
	// index looks the index up; nil, false when the OID is no index (the
	// functions' NULL).
	index := func(ctx *Context, oid uint32) (*object, bool, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return nil, false, err
		}
		o := e.objects().byOID[oid]
		return o, o != nil && o.isIndex(), nil
	}
	Register("pg_indexam_has_property", fn("", []Param{oidP, textP}, sqltypes.TypeBool, Stable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return answer(amProperty(uint32(a[0].I), nil, 0, a[1].S)), nil
	}))
	Register("pg_index_has_property", fn("", []Param{T(sqltypes.TypeRegClass), textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		o, ok, err := index(ctx, uint32(a[0].I))
		if err != nil || !ok {
			return sqltypes.Null, err
		}
		return answer(amProperty(o.am, o, 0, a[1].S)), nil
	}))
	Register("pg_index_column_has_property", fn("", []Param{T(sqltypes.TypeRegClass), intP, textP}, sqltypes.TypeBool, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		o, ok, err := index(ctx, uint32(a[0].I))
		if err != nil || !ok || a[1].I <= 0 {
			return sqltypes.Null, err
		}
		return answer(amProperty(o.am, o, int(a[1].I), a[2].S)), nil
	}))
}
