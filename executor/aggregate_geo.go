package executor

import (
	"github.com/zproxy/zproxy/internal/builtins"
	gis "github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

func init() {
	registerAggregator(func(ir.AggCall) aggregator { return &extentAgg{} }, "st_extent")
	registerAggregator(func(ir.AggCall) aggregator { return &makeLineAgg{} }, "st_makeline")
	registerAggregator(func(ir.AggCall) aggregator { return &collectAgg{} }, "st_collect")
}

// collectAgg is PostGIS's ST_Collect aggregate: the array of its rows'
// geometries handed to the array form at the end (builtins.CollectOf),
// as pgis_geometry_collect_finalfn does.
type collectAgg struct {
	arrayAgg // PostGIS accumulates an array: array_agg's limits
}

func (a *collectAgg) result() (sqltypes.Value, error) { return builtins.CollectOf(a.elems) }

// makeLineAgg is PostGIS's ST_MakeLine aggregate: the array of its rows'
// geometries, NULLs included, handed to the array form at the end
// (builtins.MakeLineOf), as pgis_geometry_makeline_finalfn does; no rows
// at all is NULL without the array form's notice.
type makeLineAgg struct {
	arrayAgg // PostGIS accumulates an array: array_agg's limits
	ctx      *builtins.Context
}

var _ contextAggregator = (*makeLineAgg)(nil)

func (a *makeLineAgg) setContext(ctx *builtins.Context) { a.ctx = ctx }

func (a *makeLineAgg) result() (sqltypes.Value, error) {
	return builtins.MakeLineOf(a.ctx, a.elems)
}

// extentAgg is PostGIS's ST_Extent: the union of the bounding boxes of
// the non-NULL, non-empty geometries, in doubles (box2d), NULL when there
// is none. box2d has no SRID, so geometries of several SRIDs are no
// error.
type extentAgg struct {
	box gis.Box
	any bool
}

func (a *extentAgg) add(args []sqltypes.Value) error {
	v := args[0]
	if v.IsNull() {
		return nil
	}
	g, err := v.Geom()
	if err != nil {
		return err
	}
	b, ok := g.Shape.Bounds()
	if !ok {
		return nil
	}
	if !a.any {
		a.box, a.any = b, true
		return nil
	}
	a.box = a.box.Union(b)
	return nil
}

func (a *extentAgg) result() (sqltypes.Value, error) {
	if !a.any {
		return sqltypes.Null, nil
	}
	return sqltypes.NewBox2D(a.box), nil
}
