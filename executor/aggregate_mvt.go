package executor

import (
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

func init() {
	registerAggregator(func(call ir.AggCall) aggregator {
		a := &mvtAgg{}
		if len(call.Args) > 0 {
			a.rowType = call.Args[0].Type()
		}
		return a
	}, "st_asmvt")
}

// mvtAgg is PostGIS's ST_AsMVT: its rows, records whose fields the
// argument's type names, encoded as one vector tile layer
// (builtins.MVTLayer). Properties of types printed through their output
// function follow the session's output settings.
type mvtAgg struct {
	rowType sqltypes.Type
	style   sqltypes.Style
	layer   builtins.MVTLayer
}

var _ styledAggregator = (*mvtAgg)(nil)

func (a *mvtAgg) setStyle(st sqltypes.Style) { a.style = st }

func (a *mvtAgg) add(args []sqltypes.Value) error { return a.layer.Add(args, a.rowType, a.style) }

func (a *mvtAgg) result() (sqltypes.Value, error) { return sqltypes.NewBytes(a.layer.Bytes()), nil }
