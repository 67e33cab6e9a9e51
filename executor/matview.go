package executor

import (
	"context"
	"errors"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// RefreshMatview empties materialized view name for REFRESH, inside a
// transaction block (InBlock, cat the block's catalog): one change of the
// block's catalog moves the view to fresh, empty store partitions (as
// TRUNCATE does) and marks it populated or not; the caller then writes the
// query's rows into the returned descriptor's partitions through the
// block's transaction. Other sessions read the old rows until the block
// commits and the new ones after, never a mix and never an empty view;
// the old partitions are deleted after the commit.
func (e *Executor) RefreshMatview(ctx context.Context, cat *catalog.Catalog, name string, populated bool) (*catalog.Table, error) {
	if blockOf(ctx) == nil || !cat.InBlock() {
		return nil, errors.New("REFRESH MATERIALIZED VIEW must run in a transaction")
	}
	var old, fresh *catalog.Table
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		t, err := s.Table(name)
		if err != nil {
			return catalog.Change{}, err
		}
		if !t.IsMatview() {
			return catalog.Change{}, pgerr.New(pgerr.FeatureNotSupported, "%q is not a materialized view", name)
		}
		nt, err := freshPartitions(t, "refresh", objectIDs(version, "cannot refresh a materialized view whose rows and indexes take more than %d store IDs"))
		if err != nil {
			return catalog.Change{}, err
		}
		nt.Matview.Populated = populated
		old, fresh = t, nt
		return catalog.Change{Put: []*catalog.Table{nt}}, nil
	})
	if err != nil {
		return nil, err
	}
	err = e.afterCommit(ctx, cat, "deleting a refreshed materialized view's old rows", func(ctx context.Context, cat *catalog.Catalog) error {
		if err := e.waitForWriters(ctx, cat); err != nil {
			return err
		}
		return e.clearTable(ctx, old)
	})
	return fresh, err
}

// scannable refuses to read a materialized view that holds no rows (WITH
// NO DATA), as PostgreSQL refuses when the statement runs (not when it is
// planned: a view may read it, and EXPLAIN explain a query on it).
func scannable(t *catalog.Table) error {
	if t.IsMatview() && !t.Matview.Populated {
		return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "materialized view %q has not been populated", t.Name).
			WithHint("Use the REFRESH MATERIALIZED VIEW command.")
	}
	return nil
}
