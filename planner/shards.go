package planner

import (
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// shardColumns binds a WITH (shard_columns = (...)) option of a table or
// index whose items spread over shards and whose key is key (keyName: "primary
// key" or "index key"): how many leading key columns place its items
// (catalog/shards.go), 0 when the option is absent.
func shardColumns(t *catalog.Table, key []catalog.KeyColumn, keyName string, with map[string]string, shards int) (int, error) {
	val, ok := with["shard_columns"]
	if !ok {
		return 0, nil
	}
	names, err := catalog.ParseShardColumns(val)
	if err != nil {
		return 0, err
	}
	return catalog.ResolveShardColumns(t, key, keyName, names, shards)
}

// indexShardColumns binds an index's shard_columns: btree indexes only,
// since a Z-order entry's key leads with its Z-address, not with columns.
func indexShardColumns(t *catalog.Table, ix *catalog.Index, with map[string]string) error {
	if _, ok := with["shard_columns"]; ok && ix.Kind != catalog.KindBTree {
		return pgerr.New(pgerr.FeatureNotSupported, "shard_columns is not supported for %s indexes", ix.Kind).
			WithDetail("A Z-order entry's key leads with its Z-address, which no equality binds.")
	}
	n, err := shardColumns(t, ix.Columns, "index key", with, ix.Shards)
	ix.ShardColumns = n
	return err
}

// isShardOption reports whether a storage option decides row placement.
func isShardOption(key string) bool { return key == "shards" || key == "shard_columns" }

// bindReshard binds an ALTER TABLE whose actions set or reset shards or
// shard_columns (ok false when none does): they may be its only actions,
// and together give the table's new placement, checked as CREATE TABLE
// checks it.
func bindReshard(t *catalog.Table, actions []parser.AlterAction) (a *ir.AlterAction, ok bool, err error) {
	for _, x := range actions {
		for key := range x.Options {
			ok = ok || isShardOption(key)
		}
		for _, key := range x.Reset {
			ok = ok || isShardOption(key)
		}
	}
	if !ok {
		return nil, false, nil
	}
	r := &ir.Reshard{Shards: t.Shards}
	columns := map[string]string{}
	if names := t.ShardColumnNames(nil); names != nil {
		for i, n := range names {
			names[i] = sqltypes.QuoteIdent(n)
		}
		columns["shard_columns"] = strings.Join(names, ",")
	}
	for _, x := range actions {
		if x.Kind != parser.AlterSetOptions && x.Kind != parser.AlterResetOptions {
			return nil, true, pgerr.New(pgerr.FeatureNotSupported, "changing shards or shard_columns must be the only action of its ALTER TABLE: it moves every row")
		}
		for key, val := range x.Options {
			switch key {
			case "shards":
				if r.Shards, err = parseShards(val); err != nil {
					return nil, true, err
				}
			case "shard_columns":
				columns["shard_columns"] = val
			default:
				return nil, true, pgerr.New(pgerr.FeatureNotSupported, "option %q cannot be changed with shards or shard_columns: change it in an ALTER TABLE of its own", key)
			}
		}
		for _, key := range x.Reset {
			switch key {
			case "shards":
				r.Shards = 1
				if t.RowIDKeyed() {
					r.Shards = rowIDShards
				}
			case "shard_columns":
				delete(columns, "shard_columns")
			default:
				return nil, true, pgerr.New(pgerr.FeatureNotSupported, "option %q cannot be reset with shards or shard_columns: reset it in an ALTER TABLE of its own", key)
			}
		}
	}
	if r.ShardColumns, err = shardColumns(t, t.PrimaryKey, "primary key", columns, r.Shards); err != nil {
		return nil, true, err
	}
	return &ir.AlterAction{AlterAction: actions[0], Reshard: r}, true, nil
}
