package pgcatalog

import (
	"context"
	"math"

	"github.com/zproxy/zproxy/catalog"
	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// PartitionSizer is a Session whose store can measure the bytes it holds
// for partitions (kv.SizeEstimator): ok is false when it cannot.
type PartitionSizer interface {
	PartitionBytes(ctx context.Context, partitions [][]byte) (n int64, ok bool, err error)
}

// sizeOf is what one of the size functions adds up for a relation.
type sizeOf int

const (
	sizeRelation sizeOf = iota // pg_relation_size: the relation itself
	sizeTable                  // pg_table_size: a table without its indexes
	sizeIndexes                // pg_indexes_size: a table's indexes
	sizeTotal                  // pg_total_relation_size: both
)

// relationBytes answers the size functions for the relation oid: the
// bytes of a table's rows and of its secondary indexes' entries, measured
// by the store where it can (Pebble), else the statistics' rows times
// their estimated item size (DynamoDB; README, "Sizes"); NULL when
// neither can say, and for relations zproxy stores nothing for (views,
// catalog relations), as before. A primary key's index is the table's own
// order: its entries are the rows, counted as the table's.
func relationBytes(ctx *Context, oid int64, what sizeOf) (sqltypes.Value, error) {
	e, err := needEnv(ctx)
	if err != nil {
		return sqltypes.Null, err
	}
	o := e.objects().byOID[uint32(oid)]
	if o == nil || o.table == nil || o.kind != 'r' && o.kind != 'i' {
		return sqltypes.Null, nil
	}
	t := o.table
	var total int64
	add := func(ix *catalog.Index) (bool, error) {
		n, ok, err := e.partBytes(t, ix)
		total += n
		return ok, err
	}
	var parts []*catalog.Index // nil stands for the table's rows
	switch {
	case o.kind == 'i' && o.index == nil:
		return intV(0), nil // the primary key: the table's rows
	case o.kind == 'i':
		if what == sizeIndexes {
			return intV(0), nil
		}
		parts = []*catalog.Index{o.index}
	case what == sizeIndexes:
		parts = t.Indexes
	case what == sizeTotal:
		parts = append([]*catalog.Index{nil}, t.Indexes...)
	default:
		parts = []*catalog.Index{nil}
	}
	for _, ix := range parts {
		ok, err := add(ix)
		if err != nil {
			return sqltypes.Null, err
		}
		if !ok {
			return sqltypes.Null, nil
		}
	}
	return intV(total), nil
}

// partBytes is the bytes of t's rows (ix nil) or of ix's entries.
func (e *Env) partBytes(t *catalog.Table, ix *catalog.Index) (int64, bool, error) {
	var parts [][]byte
	if ix == nil {
		for shard := 0; shard < max(t.Shards, 1); shard++ {
			parts = append(parts, t.Partition(shard))
		}
	} else {
		for shard := 0; shard < max(ix.Shards, 1); shard++ {
			parts = append(parts, catalog.IndexPartition(ix.ID, shard))
		}
	}
	if ps, ok := e.Sess.(PartitionSizer); ok && !catalog.IsTempPartition(parts[0]) {
		n, ok, err := ps.PartitionBytes(e.Ctx, parts)
		if err != nil || ok {
			return n, ok, err
		}
	}
	ts := e.Snap.Stats(t.ID)
	if ts == nil {
		return 0, false, nil
	}
	rows := ts.Rows
	if ix == nil {
		return int64(math.Round(rows * catalog.ItemBytes(t, ts, nil))), true, nil
	}
	if ix.Kind == catalog.KindGIN {
		return 0, false, nil // an entry per token: the statistics do not count them
	}
	return int64(math.Round(rows * catalog.ItemBytes(t, ts, catalog.IndexEntryColumns(t, ix)))), true, nil
}

func registerSizes() {
	for name, what := range map[string]sizeOf{"pg_relation_size": sizeRelation, "pg_table_size": sizeTable,
		"pg_indexes_size": sizeIndexes, "pg_total_relation_size": sizeTotal} {
		Register(name, fn("", []Param{T(sqltypes.TypeRegClass)}, sqltypes.TypeInt8, Volatile, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return relationBytes(ctx, a[0].I, what)
		}))
	}
	// pg_relation_size(relation, fork): the main fork is the relation;
	// zproxy keeps no free space map, visibility map or init fork, which
	// PostgreSQL sizes 0 when absent.
	Register("pg_relation_size", fn("", []Param{T(sqltypes.TypeRegClass), textP}, sqltypes.TypeInt8, Volatile, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		switch a[1].S {
		case "main":
			return relationBytes(ctx, a[0].I, sizeRelation)
		case "fsm", "vm", "init":
			v, err := relationBytes(ctx, a[0].I, sizeRelation)
			if err != nil || v.IsNull() {
				return v, err
			}
			return intV(0), nil
		}
		return sqltypes.Null, pgerr.New(pgerr.InvalidParameterValue, "invalid fork name").
			WithHint("Valid fork names are \"main\", \"fsm\", \"vm\", and \"init\".")
	}))
}
