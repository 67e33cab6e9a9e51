package pgcatalog

import (
	"fmt"

	"github.com/zproxy/zproxy/catalog"
	. "github.com/zproxy/zproxy/internal/builtins"
	gis "github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// ST_EstimatedExtent: PostGIS's estimate of a geometry column's extent,
// from the statistics ANALYZE keeps: where the column has a gist index,
// the union of every row's float4 box, which is what PostGIS reads from
// the index's root (catalog.ColumnStats.Bounds); otherwise PostGIS's
// statistical estimate (catalog.EstimatedExtent computes it as PostGIS's
// ANALYZE does). Differences from PostGIS: PostGIS's index extent is live,
// zproxy's as of the last ANALYZE (automatic ANALYZE keeps it current),
// and without statistics zproxy has none (a WARNING and NULL); the caller needs
// SELECT on the table (PostGIS reads the statistics of any table, which
// pg_stats hides from a role that cannot read it), and a geography
// column is 0A000 (PostGIS gives a box in geocentric coordinates).
func init() {
	estimated := func(ctx *Context, schema, table, column string, qualified bool) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		o := e.objects().find(schema, table)
		if o == nil || o.table == nil || o.isIndex() {
			shown := table
			if qualified {
				shown = schema + "." + table
			}
			return sqltypes.Null, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", shown)
		}
		if ok, err := objectPrivilege(e, e.userIn(ctx), o, nil, "SELECT", false); err != nil || !ok {
			if err == nil {
				err = pgerr.New(pgerr.InsufficientPrivilege, "permission denied for table %s", o.name)
			}
			return sqltypes.Null, err
		}
		t := o.table
		i := t.ColumnIndex(column)
		if i < 0 {
			return sqltypes.Null, pgerr.Raised("attribute %q does not exist", column)
		}
		if t.IsPartitioned() {
			return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "ST_EstimatedExtent of a partitioned table is not supported")
		}
		if t.Columns[i].Type.ID == sqltypes.Geography {
			return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "ST_EstimatedExtent of a geography column is not supported")
		}
		var cs *catalog.ColumnStats
		if ts := e.Snap.Stats(t.ID); ts != nil {
			cs = ts.Column(&t.Columns[i])
		}
		// PostGIS reads the extent from the root of the column's gist
		// index when it has one, the statistics' estimate otherwise.
		var x *[4]float64
		if cs != nil {
			x = cs.Estimated
			if gistIndexed(t, i) {
				x = cs.Bounds
			}
		}
		if x == nil {
			e.notice(&pgerr.Error{Code: pgerr.Warning, Severity: "WARNING", Message: fmt.Sprintf("stats for \"%s.%s\" do not exist", t.BareName(), column)})
			return sqltypes.Null, nil
		}
		return sqltypes.NewBox2D(gis.Box{MinX: x[0], MinY: x[1], MaxX: x[2], MaxY: x[3]}), nil
	}
	textP := T(sqltypes.TypeText)
	box := sqltypes.TypeBox2D
	Register("st_estimatedextent",
		fn("", []Param{textP, textP, textP}, box, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return estimated(ctx, a[0].S, a[1].S, a[2].S, true)
		}),
		fn("", []Param{textP, textP, textP, T(sqltypes.TypeBool)}, box, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			// parent_only matters for a table with inheritance children,
			// which zproxy has none of (partitioned tables are refused).
			return estimated(ctx, a[0].S, a[1].S, a[2].S, true)
		}),
		fn("", []Param{textP, textP}, box, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return estimated(ctx, "", a[0].S, a[1].S, false)
		}))
}

// gistIndexed reports whether column i of t has a gist index of its own.
func gistIndexed(t *catalog.Table, i int) bool {
	for _, ix := range t.Indexes {
		if ix.Gist != nil && ix.Gist.Column == i {
			return true
		}
	}
	return false
}
