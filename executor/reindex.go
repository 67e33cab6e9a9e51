package executor

import (
	"context"
	"fmt"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// Reindex rebuilds one index of a table from the table's rows, as
// PostgreSQL's REINDEX CONCURRENTLY does: a new index with the same
// definition is built beside the old one (writers maintain both, queries
// keep reading the old), then one catalog change puts the new one in the
// old one's place under its name, and the old one's entries are cleared.
// Entries that had gone stale or missing are thereby made exact again.
// If the build fails (a unique index whose table now holds duplicates:
// 23505), the new index is dropped and the old one stays as it was. The
// index's OID changes with its ID, as after DROP and CREATE. A crash
// during the build leaves the new index building under a temporary name
// (<name>_ccnew), which a restart's ResumeBuilds completes and DROP INDEX
// removes, like PostgreSQL's leftover _ccnew index.
func (e *Executor) Reindex(ctx context.Context, cat *catalog.Catalog, table string, index *catalog.Index) error {
	if cat.InBlock() {
		// The rebuild changes no row and nothing a statement can see, so
		// inside a block it is made, online, once the block has committed
		// (and not at all if it rolls back).
		tableID := index.ID
		if snap, err := cat.Snapshot(ctx); err == nil {
			if t, err := snap.Table(table); err == nil {
				tableID = t.ID
			}
		}
		return e.afterCommitOnIndex(ctx, cat, fmt.Sprintf("reindexing %q", index.Name), tableID, index.ID, func(ctx context.Context, cat *catalog.Catalog, t *catalog.Table, ix *catalog.Index) error {
			return e.Reindex(ctx, cat, t.Name, ix)
		})
	}
	var nt *catalog.Table
	var fresh *catalog.Index
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		t, err := s.Table(table)
		if err != nil {
			return catalog.Change{}, err
		}
		if err := notRewriting(t); err != nil {
			return catalog.Change{}, err
		}
		old := indexByID(t, index.ID)
		if old == nil || old.State != catalog.StatePublic {
			return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "index %q was dropped or changed during REINDEX", index.Name)
		}
		name := old.Name + "_ccnew"
		for n := 1; ; n++ {
			if _, other := s.FindIndex(name); other == nil && !s.HasRelation(name) {
				break
			}
			name = fmt.Sprintf("%s_ccnew%d", old.Name, n)
		}
		c := t.Clone()
		ix := *old
		ix.ID = catalog.ObjectID(version, 0)
		ix.Name = name
		ix.State = catalog.StateBuilding
		c.Indexes = append(c.Indexes, &ix)
		nt, fresh = c, &ix
		return catalog.Change{Put: []*catalog.Table{c}}, nil
	})
	if err != nil {
		return err
	}
	// Writers that planned without the new index finish first.
	if err := e.outwaitWriters(ctx, cat); err != nil {
		e.abandonIndex(ctx, cat, table, fresh)
		return err
	}
	if err := e.backfill(ctx, nt, fresh); err != nil {
		e.abandonIndex(ctx, cat, table, fresh)
		return err
	}
	var old *catalog.Index
	_, err = cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		t, err := s.Table(table)
		if err != nil {
			return catalog.Change{}, err
		}
		c := t.Clone()
		o, n := indexByID(c, index.ID), indexByID(c, fresh.ID)
		if o == nil || n == nil {
			return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "index %q was dropped during REINDEX", index.Name)
		}
		old = o
		n.Name, n.State = o.Name, catalog.StatePublic
		// The new index takes the old one's place in the list, so the
		// planner's tie-breaks (declaration order) do not move.
		list := make([]*catalog.Index, 0, len(c.Indexes)-1)
		for _, x := range c.Indexes {
			switch x {
			case o:
				list = append(list, n)
			case n:
			default:
				list = append(list, x)
			}
		}
		c.Indexes = list
		return catalog.Change{Put: []*catalog.Table{c}}, nil
	})
	if err != nil {
		e.abandonIndex(ctx, cat, table, fresh)
		return err
	}
	return e.clearIndex(context.WithoutCancel(ctx), old)
}

// indexByID returns the table's index with that ID, or nil.
func indexByID(t *catalog.Table, id uint64) *catalog.Index {
	for _, ix := range t.Indexes {
		if ix.ID == id {
			return ix
		}
	}
	return nil
}
